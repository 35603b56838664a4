// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.transport;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.rx4j.transport.EngineChannel.MS;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.rx4j.config.RxConfig;
import org.rx4j.counters.RxCounter;
import org.rx4j.engine.call.Call;
import org.rx4j.engine.call.CallListener;
import org.rx4j.engine.connection.Connection;
import org.rx4j.testing.CountingByteBufAllocator;
import org.rx4j.testing.LeakCheckExtension;
import org.rx4j.wire.AbortCodes;
import org.rx4j.wire.AckPacket;
import org.rx4j.wire.AckReason;
import org.rx4j.wire.DataPacket;
import org.rx4j.wire.PacketDecoder;
import org.rx4j.wire.PacketEncoder;
import org.rx4j.wire.PacketFlags;
import org.rx4j.wire.PacketType;
import org.rx4j.wire.RxConstants;
import org.rx4j.wire.RxHeader;
import org.rx4j.wire.RxPacket;

/**
 * Truncated, self-contradicting and abusive datagrams into a live client call through the real transport pipeline
 * (decoder → engine), docs/robustness.md, Rules: truncated and self-contradicting datagrams, jumbogram abuse: every one
 * is dropped and counted, none refreshes the call's liveness, a jumbogram is taken whole or dropped whole, the call
 * completes byte-exact and the inbound buffers return to baseline.
 */
@ExtendWith(LeakCheckExtension.class)
class HostileSequenceTest {
    private static final int SVC = 147;

    /** Reads and keeps whatever arrives; records how the call ended. */
    private static final class Collect implements CallListener {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        final List<Integer> ended = new ArrayList<>();
        long endedAt;
        final EngineChannel ch;

        Collect(EngineChannel ch) {
            this.ch = ch;
        }

        @Override
        public void onData(Call c, ByteBuf b, long now) {
            byte[] a = new byte[b.readableBytes()];
            b.readBytes(a);
            bytes.writeBytes(a);
            b.release();
        }

        @Override
        public void onWritable(Call c) {
        }

        @Override
        public void onComplete(Call c, int errorCode) {
            ended.add(errorCode);
            endedAt = ch.now();
        }
    }

    /** A client call with a 3-byte request sent; returns the request's header. */
    private static RxHeader startCall(EngineChannel ch, Collect app) {
        ch.handler.run(e -> {
            Connection conn = e.connect(EngineChannel.PEER, SVC, 0);
            Call call = e.newCall(ch.now(), conn, app);
            call.write(ch.now(), Unpooled.copiedBuffer(new byte[] {1, 2, 3}));
            call.finishSending(ch.now());
        });
        List<RxPacket> out = ch.sent();
        return out.get(0).header();
    }

    private static RxHeader reply(RxHeader req, int seq, int serial, int type, int flags) {
        return new RxHeader(req.epoch(), req.cid(), req.callNumber(), seq, serial, type, flags, 0, 0, 0, SVC);
    }

    private static byte[] pattern(int from, int n) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) ((from + i) % 251);
        }
        return b;
    }

    private static byte[] encode(RxPacket p) {
        ByteBuf b = PacketEncoder.encode(p, Unpooled.buffer().alloc());
        p.release();
        byte[] a = new byte[b.readableBytes()];
        b.readBytes(a);
        b.release();
        return a;
    }

    /** A jumbogram of {@code n} sub-packets from {@code seq} on, each 1412 pattern bytes, no LAST_PACKET. */
    private static byte[] jumbogram(RxHeader req, int seq, int serial, int n, int patternFrom) {
        List<DataPacket> subs = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            int flags = i < n - 1 ? PacketFlags.JUMBO_PACKET : PacketFlags.REQUEST_ACK;
            subs.add(new DataPacket(reply(req, seq + i, serial + i, PacketType.DATA, flags),
                    Unpooled.wrappedBuffer(pattern(patternFrom + i * 1412, 1412))));
        }
        ByteBuf b = Unpooled.buffer(PacketEncoder.jumbogramLength(subs));
        PacketEncoder.encodeJumbogram(subs, b);
        subs.forEach(DataPacket::release);
        byte[] a = new byte[b.readableBytes()];
        b.readBytes(a);
        b.release();
        return a;
    }

    private static boolean decodes(byte[] bytes, int len) {
        List<RxPacket> out = new ArrayList<>();
        ByteBuf b = Unpooled.wrappedBuffer(bytes, 0, len);
        try {
            return PacketDecoder.decode(b, out) == null;
        } finally {
            out.forEach(RxPacket::release);
            b.release();
        }
    }

    private static void send(EngineChannel ch, CountingByteBufAllocator alloc, byte[] bytes, int len) {
        ch.receiveRaw(alloc.heapBuffer(len, len).writeBytes(bytes, 0, len));
    }

    /** Delivers every prefix of {@code bytes} that does not decode; returns how many. */
    private static int undecodablePrefixes(EngineChannel ch, CountingByteBufAllocator alloc, byte[] bytes) {
        int n = 0;
        // From 1 byte: an empty datagram is counted the same, but Netty's empty buffer cannot be released.
        for (int len = 1; len < bytes.length; len++) {
            if (!decodes(bytes, len)) {
                send(ch, alloc, bytes, len);
                n++;
            }
        }
        return n;
    }

    /** Delivers every prefix of {@code bytes} that decodes (a valid shorter packet); returns how many. */
    private static int decodablePrefixes(EngineChannel ch, CountingByteBufAllocator alloc, byte[] bytes) {
        int n = 0;
        for (int len = 0; len < bytes.length; len++) {
            if (decodes(bytes, len)) {
                send(ch, alloc, bytes, len);
                n++;
            }
        }
        return n;
    }

    private static long totals(EngineChannel ch, java.util.function.ToLongFunction<org.rx4j.engine.telemetry.RxCounters> f) {
        long[] v = new long[1];
        ch.handler.run(e -> v[0] = f.applyAsLong(e.totals()));
        return v[0];
    }

    @Test
    void everyPrefixOfEveryDatagramIsDroppedCountedAndTheCallCompletesByteExact() {
        CountingByteBufAllocator alloc = new CountingByteBufAllocator();
        try (EngineChannel ch = new EngineChannel(RxConfig.defaults())) {
            Collect app = new Collect(ch);
            RxHeader req = startCall(ch, app);
            byte[] ack = encode(AckPacket.of(reply(req, 0, 1, PacketType.ACK, PacketFlags.SLOW_START_OK), 2, 1,
                    req.serial(), AckReason.REQUESTED, new byte[0], 5692, 1444, 32, 4));
            byte[] jumbo = jumbogram(req, 1, 2, 3, 0);
            byte[] last = encode(new DataPacket(reply(req, 4, 5, PacketType.DATA, PacketFlags.LAST_PACKET),
                    Unpooled.wrappedBuffer(pattern(3 * 1412, 100))));
            // The same ACK with nAcks = 200 and no room for them: self-contradicting.
            byte[] lying = ack.clone();
            lying[RxConstants.HEADER_SIZE + 17] = (byte) 200;

            int malformed = 0;
            for (byte[] d : List.of(ack, jumbo, last)) {
                malformed += undecodablePrefixes(ch, alloc, d);
                if (d == ack) {
                    send(ch, alloc, lying, lying.length);
                    malformed++;
                }
                send(ch, alloc, d, d.length);
                // What does decode is a valid shorter packet: after the real one it is a duplicate or stale.
                decodablePrefixes(ch, alloc, d);
                ch.sent();
            }
            assertEquals(malformed, ch.decoder.malformedDatagrams(), "every undecodable datagram counted");
            assertEquals(List.of(0), app.ended, "the call completed");
            assertArrayEquals(pattern(0, 3 * 1412 + 100), app.bytes.toByteArray(), "byte-exact reply");
            assertTrue(totals(ch, t -> t.get(RxCounter.DUPLICATES_RECEIVED)) > 0, "shorter copies arrived as duplicates");
            assertEquals(0, ch.handler.datagramFailures());
            alloc.assertAllReleased();
        }
    }

    /** How long a call whose server never answers lives, with undecodable datagrams for it every 100 ms or not. */
    private static long lifetimeOfASilentCall(boolean withGarbage) {
        CountingByteBufAllocator alloc = new CountingByteBufAllocator();
        try (EngineChannel ch = new EngineChannel(RxConfig.defaults())) {
            Collect app = new Collect(ch);
            long start = ch.now();
            RxHeader req = startCall(ch, app);
            byte[] ack = encode(AckPacket.of(reply(req, 0, 1, PacketType.ACK, PacketFlags.SLOW_START_OK), 2, 1,
                    req.serial(), AckReason.REQUESTED, new byte[0], 5692, 1444, 32, 4));
            byte[] jumbo = jumbogram(req, 1, 2, 3, 0);
            int garbage = 0;
            for (int i = 0; i < 1200 && app.ended.isEmpty(); i++) {
                if (withGarbage) {
                    garbage += 3;
                    send(ch, alloc, ack, RxConstants.HEADER_SIZE + 10);
                    send(ch, alloc, jumbo, 1412 + 28 + 2);
                    send(ch, alloc, jumbo, 20);
                }
                ch.advance(100 * MS);
                ch.sent();
            }
            assertEquals(List.of(AbortCodes.RX_CALL_DEAD), app.ended, "the silent server's call dies");
            assertEquals(garbage, ch.decoder.malformedDatagrams(), "every garbage datagram counted");
            alloc.assertAllReleased();
            return app.endedAt - start;
        }
    }

    @Test
    void undecodableDatagramsDoNotRefreshTheCallsLiveness() {
        long quiet = lifetimeOfASilentCall(false);
        long garbage = lifetimeOfASilentCall(true);
        assertEquals(quiet, garbage, "the call dies at the same dead time with or without garbage");
    }

    @Test
    void abusiveJumbogramsAreDroppedWholeAndNothingPartialReachesTheApplication() {
        CountingByteBufAllocator alloc = new CountingByteBufAllocator();
        try (EngineChannel ch = new EngineChannel(RxConfig.defaults())) {
            Collect app = new Collect(ch);
            RxHeader req = startCall(ch, app);
            // A sub-packet cut short (the chain claims a third sub-packet that is not there).
            byte[] good = jumbogram(req, 1, 2, 3, 0);
            send(ch, alloc, good, RxConstants.HEADER_SIZE + 1412 + 4 + 700);
            // LAST_PACKET on the second of three sub-packets.
            byte[] lastMid = good.clone();
            int secondFlags = RxConstants.HEADER_SIZE + 1412; // the jumbo header before sub-packet 2 holds its flags
            assertEquals(PacketFlags.JUMBO_PACKET, lastMid[secondFlags] & PacketFlags.JUMBO_PACKET);
            lastMid[secondFlags] |= PacketFlags.LAST_PACKET;
            send(ch, alloc, lastMid, lastMid.length);
            assertEquals(2, ch.decoder.malformedDatagrams());
            // Seqs wrapping through 0 inside, and 46 sub-packets to a peer told 4 (its default jumboMax).
            byte[] wrap = jumbogram(req, 0xFFFFFFFF, 2, 3, 0);
            send(ch, alloc, wrap, wrap.length);
            byte[] big = jumbogram(req, 1, 2, 46, 0);
            send(ch, alloc, big, big.length);
            assertEquals(2, totals(ch, t -> t.get(RxCounter.JUMBOGRAMS_REJECTED)), "both dropped whole by the engine");
            assertEquals(0, totals(ch, t -> t.get(RxCounter.DATA_PACKETS_RECEIVED)), "not one sub-packet reached a call");
            assertEquals(0, app.bytes.size(), "nothing reached the application");
            alloc.assertAllReleased();
            ch.sent();

            // The real reply is then taken whole.
            send(ch, alloc, good, good.length);
            byte[] last = encode(new DataPacket(reply(req, 4, 5, PacketType.DATA, PacketFlags.LAST_PACKET),
                    Unpooled.wrappedBuffer(pattern(3 * 1412, 100))));
            send(ch, alloc, last, last.length);
            assertEquals(List.of(0), app.ended);
            assertArrayEquals(pattern(0, 3 * 1412 + 100), app.bytes.toByteArray());
            alloc.assertAllReleased();
        }
    }
}
