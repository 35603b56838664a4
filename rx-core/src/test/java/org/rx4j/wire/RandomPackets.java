// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.wire;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Seeded generator of valid Rx packets of every type: packets whose encoding decodes back to an equal
 * packet. DATA payloads are allocated from the given allocator; the caller releases them.
 */
final class RandomPackets {
    /** Types that decode as {@link ControlPacket}: BUSY, ACKALL, CHALLENGE, RESPONSE, PARAMS and unknown codes. */
    private static final int[] CONTROL_TYPES = {0, PacketType.BUSY, PacketType.ACKALL, PacketType.CHALLENGE,
        PacketType.RESPONSE, 9, 10, 11, 12, 14, 99, 255};

    private final Random random;
    private final ByteBufAllocator alloc;

    RandomPackets(Random random, ByteBufAllocator alloc) {
        this.random = random;
        this.alloc = alloc;
    }

    /** @return a header of the given type with every other field random (flags as given) */
    RxHeader header(int type, int flags) {
        return new RxHeader(random.nextInt(), random.nextInt(), random.nextInt(), random.nextInt(), random.nextInt(),
                type, flags, random.nextInt(256), random.nextInt(256), random.nextInt(65536), random.nextInt(65536));
    }

    private int flagsWithout(int bits) {
        return random.nextInt(256) & ~bits;
    }

    byte[] bytes(int length) {
        byte[] b = new byte[length];
        random.nextBytes(b);
        return b;
    }

    private int length(int max) {
        // Favour the edges: empty, tiny and maximal bodies find more bugs than uniform sizes.
        return switch (random.nextInt(4)) {
            case 0 -> 0;
            case 1 -> random.nextInt(Math.min(8, max) + 1);
            case 2 -> max;
            default -> random.nextInt(max + 1);
        };
    }

    /** @return a lone DATA packet (no JUMBO_PACKET) with a 0..maxPayload-byte payload the caller must release */
    DataPacket data(int maxPayload) {
        ByteBuf payload = alloc.buffer().writeBytes(bytes(length(maxPayload)));
        return new DataPacket(header(PacketType.DATA, flagsWithout(PacketFlags.JUMBO_PACKET)), payload);
    }

    /**
     * @param nAcks soft-ack entries, 0..255
     * @param trailerWords 0, 2, 3 or 4
     * @return an ACK whose tail padding keeps the trailer unambiguous (a decoder reads trailer words by length)
     */
    AckPacket ack(int nAcks, int trailerWords) {
        int maxTail = switch (trailerWords) {
            case 0 -> RxConstants.ACK_PAD_SIZE + 2 * 4 - 1; // 11+ bytes would read as a 2-word trailer
            case 4 -> 1500; // MTU-probe PINGs pad up to a whole packet
            default -> 3; // a 4th byte would complete another trailer word
        };
        return new AckPacket(header(PacketType.ACK, random.nextInt(256)), random.nextInt(65536), random.nextInt(65536),
                random.nextInt(), random.nextInt(), random.nextInt(), random.nextInt(256), bytes(nAcks), trailerWords,
                trailerWords >= 2 ? random.nextInt() : 0, trailerWords >= 2 ? random.nextInt() : 0,
                trailerWords >= 3 ? random.nextInt() : 0, trailerWords >= 4 ? random.nextInt() : 0,
                length(maxTail));
    }

    /** @return an ACK with a random number of acks and a random trailer shape */
    AckPacket ack() {
        int[] words = {0, 2, 3, 4};
        return ack(length(RxConstants.MAX_ACKS), words[random.nextInt(words.length)]);
    }

    AbortPacket abort() {
        return new AbortPacket(header(PacketType.ABORT, random.nextInt(256)), random.nextInt(), length(8));
    }

    ControlPacket control() {
        int type = CONTROL_TYPES[random.nextInt(CONTROL_TYPES.length)];
        return new ControlPacket(header(type, random.nextInt(256)), bytes(length(200)));
    }

    DebugRequest debugRequest() {
        return new DebugRequest(header(PacketType.DEBUG, random.nextInt(256) | PacketFlags.CLIENT_INITIATED),
                random.nextInt(8), random.nextInt(), length(4));
    }

    DebugReply debugReply() {
        int[] sizes = {0, DebugReply.BAD_TYPE_SIZE, DebugStats.SIZE, DebugPeer.SIZE, DebugConn.SIZE,
            RxStatistics.SIZE, random.nextInt(400)};
        return new DebugReply(header(PacketType.DEBUG, flagsWithout(PacketFlags.CLIENT_INITIATED)),
                bytes(sizes[random.nextInt(sizes.length)]));
    }

    VersionPacket version() {
        byte[] body = switch (random.nextInt(3)) {
            case 0 -> new byte[1];
            case 1 -> VersionPacket.replyBody("rx4j " + random.nextInt(1000));
            default -> bytes(length(100));
        };
        return new VersionPacket(header(PacketType.VERSION, random.nextInt(256)), body);
    }

    /** @return one packet of a random kind; DATA payloads up to {@code maxPayload} bytes */
    RxPacket any(int maxPayload) {
        return switch (random.nextInt(8)) {
            case 0 -> data(maxPayload);
            case 1, 2 -> ack();
            case 3 -> abort();
            case 4 -> control();
            case 5 -> debugRequest();
            case 6 -> debugReply();
            default -> version();
        };
    }

    /**
     * A valid jumbogram's sub-packets as the decoder yields them: consecutive seq and serial, 1412-byte
     * payloads but the last, JUMBO_PACKET on all but the last, no LAST_PACKET before the last, userStatus 0
     * after the first.
     *
     * @param k sub-packets, 2..47
     * @param lastPayload bytes in the last sub-packet, 0..1412
     * @return the sub-packets; the caller releases their payloads
     */
    List<DataPacket> jumbogram(int k, int lastPayload) {
        RxHeader first = header(PacketType.DATA, random.nextInt(256) & ~PacketFlags.LAST_PACKET
                | PacketFlags.JUMBO_PACKET);
        List<DataPacket> out = new ArrayList<>(k);
        RxHeader h = first;
        for (int i = 0; i < k; i++) {
            boolean last = i == k - 1;
            int size = last ? lastPayload : RxConstants.JUMBO_BUFFER_SIZE;
            out.add(new DataPacket(h, alloc.buffer(size).writeBytes(bytes(size))));
            if (!last) {
                boolean nextIsLast = i + 1 == k - 1;
                int flags = nextIsLast ? flagsWithout(PacketFlags.JUMBO_PACKET)
                        : (random.nextInt(256) & ~PacketFlags.LAST_PACKET) | PacketFlags.JUMBO_PACKET;
                h = new RxHeader(first.epoch(), first.cid(), first.callNumber(), h.seq() + 1, h.serial() + 1,
                        PacketType.DATA, flags, 0, first.securityIndex(), random.nextInt(65536), first.serviceId());
            }
        }
        return out;
    }
}
