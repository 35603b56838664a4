// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.UnpooledByteBufAllocator;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.rx4j.testing.Captures;
import org.rx4j.testing.CountingByteBufAllocator;

/**
 * Seeded mutation fuzz of {@link PacketDecoder}: random datagrams and mutants of the OpenAFS captures and
 * of valid encoded packets (truncations, bit flips, byte-range overwrites, lying nAcks and JUMBO flags, type
 * changes, appended junk). Every datagram must decode without an exception; every decoded packet must
 * re-encode and decode again to equal packets; every buffer must be released.
 *
 * <p>Leaks are counted with a {@link CountingByteBufAllocator} over an unpooled heap allocator with Netty's
 * leak detection off: paranoid detection would make a million iterations far too slow.
 *
 * <p>Iterations: {@code -Drx4j.fuzz.iterations=N} (the pom passes 1,000,000; {@code -Plong-fuzz} 50,000,000).
 * Seed: {@code -Drx4j.fuzz.seed=S} (default fixed, so the unit suite is deterministic).
 */
class WireFuzzTest {
    private static final int ITERATIONS = Integer.getInteger("rx4j.fuzz.iterations", 1_000_000);
    private static final long SEED = Long.getLong("rx4j.fuzz.seed", 0x5eed_4a3f_1d2cL);
    private static final int MAX_DATAGRAM = RxConstants.MAX_DATAGRAM_SIZE;

    private final Random random = new Random(SEED);
    private final CountingByteBufAllocator alloc = new CountingByteBufAllocator(new UnpooledByteBufAllocator(false, true));
    private final Map<DecodeError, Long> errors = new EnumMap<>(DecodeError.class);
    private long decoded;

    @Test
    void mutatedDatagramsNeverThrowNeverLeakAndReencodeConsistently() {
        List<byte[]> seeds = seeds();
        long start = System.nanoTime();
        for (int i = 0; i < ITERATIONS; i++) {
            byte[] input = i % 16 == 0 ? randomDatagram() : mutate(seeds.get(random.nextInt(seeds.size())));
            try {
                decodeAndReencode(input, random.nextInt(8) == 0 ? random.nextInt(16) : 0);
            } catch (Throwable t) {
                fail("seed " + SEED + " iteration " + i + " input " + HexFormat.of().formatHex(input), t);
            }
            if ((i & 1023) == 1023) {
                alloc.assertAllReleased();
            }
        }
        alloc.assertAllReleased();
        long ms = (System.nanoTime() - start) / 1_000_000;
        System.out.printf("WireFuzzTest: %d datagrams in %d ms (seed %d): %d decoded, errors %s, %d buffers%n",
                ITERATIONS, ms, SEED, decoded, errors, alloc.totalAllocated());
        if (ITERATIONS >= 10_000) {
            // the mutants must reach both the success path and the error paths to mean anything
            assertTrue(decoded > ITERATIONS / 10, "decoded only " + decoded);
            for (DecodeError e : List.of(DecodeError.TRUNCATED_HEADER, DecodeError.TRUNCATED_ACK,
                    DecodeError.BAD_ACK_COUNT, DecodeError.TRUNCATED_JUMBOGRAM, DecodeError.LAST_PACKET_IN_JUMBOGRAM)) {
                assertTrue(errors.getOrDefault(e, 0L) > 0, "never produced " + e);
            }
        }
    }

    /**
     * Decodes {@code input} from a buffer whose reader index is {@code offset} (junk before it), re-encodes
     * what decoded, decodes that again and compares, and releases every buffer and packet.
     */
    private void decodeAndReencode(byte[] input, int offset) {
        ByteBuf datagram = alloc.heapBuffer(offset + input.length);
        datagram.writeZero(offset).writeBytes(input).readerIndex(offset);
        List<RxPacket> first = new ArrayList<>();
        List<RxPacket> second = new ArrayList<>();
        ByteBuf again = null;
        try {
            DecodeError error = PacketDecoder.decode(datagram, first);
            assertEquals(offset, datagram.readerIndex());
            if (error != null) {
                errors.merge(error, 1L, Long::sum);
                assertTrue(first.isEmpty());
                return;
            }
            decoded++;
            again = reencode(first);
            assertEquals(input.length, again.readableBytes(), "every byte of a datagram belongs to some field");
            assertEquals(null, PacketDecoder.decode(again, second));
            assertEquals(first, second);
        } finally {
            first.forEach(RxPacket::release);
            second.forEach(RxPacket::release);
            if (again != null) {
                again.release();
            }
            assertEquals(1, datagram.refCnt(), "decoded packets still hold the datagram");
            datagram.release();
        }
    }

    private ByteBuf reencode(List<RxPacket> packets) {
        if (packets.get(0) instanceof DataPacket) {
            List<DataPacket> data = new ArrayList<>(packets.size());
            packets.forEach(p -> data.add((DataPacket) p));
            ByteBuf out = alloc.heapBuffer(PacketEncoder.jumbogramLength(data));
            PacketEncoder.encodeJumbogram(data, out);
            return out;
        }
        assertEquals(1, packets.size());
        ByteBuf out = alloc.heapBuffer(PacketEncoder.encodedLength(packets.get(0)));
        PacketEncoder.encode(packets.get(0), out);
        return out;
    }

    /** The captures, plus valid encodings of random packets of every type and of jumbograms up to 47 sub-packets. */
    private List<byte[]> seeds() {
        List<byte[]> seeds = new ArrayList<>(Captures.allPayloads());
        RandomPackets gen = new RandomPackets(new Random(SEED + 1), alloc);
        for (int i = 0; i < 300; i++) {
            RxPacket p = gen.any(3000);
            ByteBuf b = PacketEncoder.encode(p, alloc);
            seeds.add(bytesOf(b));
            b.release();
            p.release();
        }
        for (int k : new int[] {2, 3, 4, 6, 17, 46, 47}) {
            List<DataPacket> jumbo = gen.jumbogram(k, k == 47 ? 300 : random.nextInt(RxConstants.JUMBO_BUFFER_SIZE + 1));
            ByteBuf b = alloc.heapBuffer(PacketEncoder.jumbogramLength(jumbo));
            PacketEncoder.encodeJumbogram(jumbo, b);
            seeds.add(bytesOf(b));
            b.release();
            jumbo.forEach(DataPacket::release);
        }
        alloc.assertAllReleased();
        return seeds;
    }

    private static byte[] bytesOf(ByteBuf b) {
        byte[] out = new byte[b.readableBytes()];
        b.getBytes(b.readerIndex(), out);
        return out;
    }

    private byte[] randomDatagram() {
        int length = random.nextInt(4) == 0 ? random.nextInt(RxConstants.HEADER_SIZE) : random.nextInt(2000);
        byte[] b = new byte[length];
        random.nextBytes(b);
        if (length > 21 && random.nextBoolean()) {
            b[20] = (byte) (1 + random.nextInt(13)); // mostly known types, to get past the type switch
        }
        return b;
    }

    private byte[] mutate(byte[] seed) {
        byte[] b = seed;
        int rounds = 1 + random.nextInt(4);
        for (int r = 0; r < rounds; r++) {
            b = mutateOnce(b);
        }
        return b;
    }

    private byte[] mutateOnce(byte[] seed) {
        byte[] b = seed.clone();
        switch (random.nextInt(10)) {
            case 0 -> { // truncate anywhere, often near the header or a sub-packet boundary
                return Arrays.copyOf(b, random.nextBoolean() ? random.nextInt(b.length + 1)
                        : Math.max(0, Math.min(b.length, 28 + random.nextInt(40) - 20)));
            }
            case 1 -> { // flip one bit
                if (b.length > 0) {
                    int i = random.nextInt(b.length);
                    b[i] ^= (byte) (1 << random.nextInt(8));
                }
            }
            case 2 -> { // overwrite a byte range with random bytes
                if (b.length > 0) {
                    int from = random.nextInt(b.length);
                    int to = Math.min(b.length, from + 1 + random.nextInt(32));
                    for (int i = from; i < to; i++) {
                        b[i] = (byte) random.nextInt();
                    }
                }
            }
            case 3 -> { // lie about nAcks
                if (b.length > 45) {
                    b[20] = PacketType.ACK;
                    b[45] = (byte) (random.nextBoolean() ? random.nextInt(256) : b.length - 46 + random.nextInt(5) - 2);
                }
            }
            case 4 -> { // set or clear JUMBO_PACKET (and sometimes LAST_PACKET) in the header or a jumbo header
                int subPackets = Math.max(1, (b.length - 28) / RxConstants.JUMBO_STRIDE + 1);
                int k = random.nextInt(subPackets);
                int at = k == 0 ? 21 : 28 + k * RxConstants.JUMBO_STRIDE - RxConstants.JUMBO_HEADER_SIZE;
                if (at < b.length) {
                    b[at] ^= (byte) (random.nextInt(3) == 0 ? PacketFlags.LAST_PACKET : PacketFlags.JUMBO_PACKET);
                    if (b.length > 20 && random.nextBoolean()) {
                        b[20] = PacketType.DATA;
                    }
                }
            }
            case 5 -> { // change the type
                if (b.length > 20) {
                    b[20] = (byte) (random.nextInt(4) == 0 ? random.nextInt(256) : 1 + random.nextInt(13));
                }
            }
            case 6 -> { // toggle CLIENT_INITIATED (turns DEBUG replies into short requests and back)
                if (b.length > 21) {
                    b[21] ^= PacketFlags.CLIENT_INITIATED;
                }
            }
            case 7 -> { // append junk
                int extra = random.nextInt(random.nextBoolean() ? 8 : RxConstants.JUMBO_STRIDE + 8);
                byte[] longer = Arrays.copyOf(b, Math.min(MAX_DATAGRAM, b.length + extra));
                for (int i = b.length; i < longer.length; i++) {
                    longer[i] = (byte) random.nextInt();
                }
                return longer;
            }
            case 8 -> { // interesting values at a random position
                if (b.length > 0) {
                    byte[] values = {0, -1, 1, 0x20, 0x24, 0x7f, (byte) 0x80};
                    b[random.nextInt(b.length)] = values[random.nextInt(values.length)];
                }
            }
            default -> { // cut at an ACK trailer boundary: lone words and partial words
                if (b.length > 46 && b[20] == PacketType.ACK) {
                    int trailer = 46 + (b[45] & 0xFF) + RxConstants.ACK_PAD_SIZE;
                    return Arrays.copyOf(b, Math.max(0, Math.min(b.length, trailer + random.nextInt(20) - 3)));
                }
            }
        }
        return b;
    }
}
