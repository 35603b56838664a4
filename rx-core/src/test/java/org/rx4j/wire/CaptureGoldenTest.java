// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.wire;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;
import org.rx4j.testing.Captures;
import org.rx4j.testing.Captures.Datagram;
import org.rx4j.testing.CountingByteBufAllocator;
import org.rx4j.testing.LeakCheckExtension;

/**
 * Golden vectors: every datagram of the real OpenAFS 1.8.9 captures (src/test/resources/captures, see its
 * README and rx-wire-facts.md §13) decodes, re-encodes to the same bytes, and carries what the README says.
 */
@ExtendWith(LeakCheckExtension.class)
class CaptureGoldenTest {
    static final List<String> CAPTURES = Captures.NAMES;
    private static final int COOKIE = 0x00004711;

    /** Decodes every datagram of a capture, hands it to {@code check} with its packets, then releases them. */
    private static void forEachDecoded(String name, CountingByteBufAllocator alloc,
                                       BiConsumer<Datagram, List<RxPacket>> check) {
        for (Datagram d : Captures.load(name)) {
            ByteBuf buf = alloc.buffer(d.bytes().length).writeBytes(d.bytes());
            List<RxPacket> packets = new ArrayList<>();
            try {
                DecodeError error = PacketDecoder.decode(buf, packets);
                assertNull(error, () -> name + ":" + d.line() + " failed to decode: " + error);
                assertFalse(packets.isEmpty(), () -> name + ":" + d.line() + " decoded to nothing");
                check.accept(d, packets);
            } finally {
                packets.forEach(RxPacket::release);
                buf.release();
            }
        }
    }

    private static String where(String name, Datagram d) {
        return name + ":" + d.line() + " " + d.direction();
    }

    @ParameterizedTest
    @FieldSource("CAPTURES")
    void everyDatagramDecodesAndReencodesToTheSameBytes(String name, CountingByteBufAllocator alloc) {
        int[] count = {0};
        forEachDecoded(name, alloc, (d, packets) -> {
            ByteBuf out = alloc.buffer(d.bytes().length);
            try {
                if (packets.get(0) instanceof DataPacket) {
                    List<DataPacket> data = new ArrayList<>();
                    packets.forEach(p -> data.add((DataPacket) p));
                    assertEquals(d.bytes().length, PacketEncoder.jumbogramLength(data));
                    PacketEncoder.encodeJumbogram(data, out);
                } else {
                    assertEquals(1, packets.size());
                    assertEquals(d.bytes().length, PacketEncoder.encodedLength(packets.get(0)));
                    PacketEncoder.encode(packets.get(0), out);
                }
                assertArrayEquals(d.bytes(), ByteBufUtil.getBytes(out), () -> where(name, d) + " re-encoded differently");
            } finally {
                out.release();
            }
            count[0]++;
        });
        assertEquals(Captures.load(name).size(), count[0]);
    }

    @Test
    void badVersionYieldsCallAbortThenRawAbortWithServiceIdInSpareField(CountingByteBufAllocator alloc) {
        List<RxPacket> fromServer = new ArrayList<>();
        forEachDecoded("bad-version", alloc, (d, packets) -> {
            if (!d.clientToServer()) {
                assertEquals(1, packets.size());
                fromServer.add(packets.get(0)); // value packets only (no DATA from the server here)
            }
        });
        assertEquals(3, fromServer.size());
        AckPacket ping = assertInstanceOf(AckPacket.class, fromServer.get(0));
        assertEquals(AckReason.PING, ping.reason());
        assertTrue(ping.header().hasFlag(PacketFlags.REQUEST_ACK));

        AbortPacket callAbort = assertInstanceOf(AbortPacket.class, fromServer.get(1));
        assertEquals(AbortCodes.RX_CALL_DEAD, callAbort.code());
        assertEquals(1, callAbort.header().callNumber());
        assertEquals(147, callAbort.header().serviceId());
        assertEquals(0, callAbort.extraBytes());

        AbortPacket rawAbort = assertInstanceOf(AbortPacket.class, fromServer.get(2));
        assertEquals(AbortCodes.RX_INVALID_OPERATION, rawAbort.code());
        assertEquals(999, rawAbort.header().spare(), "raw abort's service id sits in header bytes 24-25");
        assertEquals(0, rawAbort.header().serviceId(), "bytes 26-27 of a raw abort are 0");
        assertEquals(0, rawAbort.header().serial());
        assertEquals(0, rawAbort.header().flags());
        assertEquals(1, rawAbort.header().callNumber(), "callNumber copied from the offending packet");
        assertEquals(0x8000, rawAbort.header().connectionId());
    }

    @Test
    void rpcHasCallsOneToThreeOnChannelZeroWithOnePacketRequestsAndCookieReplies(CountingByteBufAllocator alloc) {
        List<Integer> requestCalls = new ArrayList<>();
        List<Integer> replyCalls = new ArrayList<>();
        forEachDecoded("rpc", alloc, (d, packets) -> {
            if (!(packets.get(0) instanceof DataPacket data)) {
                return;
            }
            assertEquals(1, packets.size());
            RxHeader h = data.header();
            assertEquals(0, h.channel());
            assertEquals(1, h.seq());
            assertEquals(147, h.serviceId());
            if (d.clientToServer()) {
                assertEquals(PacketFlags.CLIENT_INITIATED | PacketFlags.LAST_PACKET, h.flags());
                // rxperf -S 4 -R 30: 16-byte parameter block (version 3, command RPC 3, read and write chunk
                // sizes), then S = 4 and R = 30, then the 4 request bytes
                ByteBuf p = data.payload();
                assertEquals(16 + 8 + 4, p.readableBytes());
                assertEquals(3, p.getInt(p.readerIndex()));
                assertEquals(3, p.getInt(p.readerIndex() + 4));
                assertEquals(4, p.getInt(p.readerIndex() + 16));
                assertEquals(30, p.getInt(p.readerIndex() + 20));
                requestCalls.add(h.callNumber());
            } else {
                assertEquals(PacketFlags.LAST_PACKET, h.flags());
                assertEquals(30 + 4, data.payload().readableBytes()); // R bytes, then the cookie
                assertEquals(COOKIE, data.payload().getInt(data.payload().writerIndex() - 4));
                replyCalls.add(h.callNumber());
            }
        });
        assertEquals(List.of(1, 2, 3), requestCalls);
        assertEquals(List.of(1, 2, 3), replyCalls);
    }

    @ParameterizedTest
    @FieldSource("CAPTURES")
    void ackPadBytesAreZeroOnTheWire(String name, CountingByteBufAllocator alloc) {
        int[] acks = {0};
        forEachDecoded(name, alloc, (d, packets) -> {
            if (packets.get(0) instanceof AckPacket ack) {
                int pad = RxConstants.HEADER_SIZE + RxConstants.ACK_FIXED_SIZE + ack.nAcks();
                assertTrue(ack.hasTrailer(), () -> where(name, d) + " ACK without trailer");
                for (int i = pad; i < pad + RxConstants.ACK_PAD_SIZE; i++) {
                    assertEquals(0, d.bytes()[i], where(name, d) + " pad byte " + i);
                }
                assertEquals(0, ack.tailBytes());
                acks[0]++;
            }
        });
        if (!name.equals("rxdebug")) {
            assertTrue(acks[0] > 0, name + " has ACKs");
        }
    }

    @ParameterizedTest
    @FieldSource("CAPTURES")
    void openAfsTrailersAdvertiseItsMtusAndJumboSize(String name, CountingByteBufAllocator alloc) {
        boolean noJumbo = name.equals("send-nojumbo");
        int[] checked = {0};
        forEachDecoded(name, alloc, (d, packets) -> {
            if (!(packets.get(0) instanceof AckPacket ack)) {
                return;
            }
            if (name.equals("bad-version") && d.clientToServer()) {
                return; // the probe's own hand-made ACK (line 3) is not normative (§13)
            }
            assertTrue(ack.header().hasFlag(PacketFlags.SLOW_START_OK), where(name, d));
            assertEquals(4, ack.trailerWords(), where(name, d));
            assertEquals(noJumbo ? 1444 : 5692, ack.maxMTU(), where(name, d));
            assertEquals(1444, ack.ifMTU(), where(name, d));
            assertEquals(noJumbo ? 1 : 4, ack.maxDgramPackets(), where(name, d));
            assertTrue(ack.rwind() == 16 || ack.rwind() == 32, where(name, d) + " rwind " + ack.rwind());
            checked[0]++;
        });
        if (!name.equals("rxdebug")) {
            assertTrue(checked[0] > 0);
        }
    }

    @ParameterizedTest
    @FieldSource("CAPTURES")
    void jumbogramSubPacketsAre1412BytesWithSeqAndSerialRisingByOne(String name, CountingByteBufAllocator alloc) {
        int[] jumbograms = {0};
        forEachDecoded(name, alloc, (d, packets) -> {
            if (packets.size() < 2) {
                return;
            }
            jumbograms[0]++;
            assertTrue(packets.size() <= 4, where(name, d) + " more sub-packets than OpenAFS advertises");
            RxHeader first = packets.get(0).header();
            for (int i = 0; i < packets.size(); i++) {
                DataPacket p = (DataPacket) packets.get(i);
                boolean last = i == packets.size() - 1;
                assertEquals(first.seq() + i, p.header().seq(), where(name, d));
                assertEquals(first.serial() + i, p.header().serial(), where(name, d));
                assertEquals(first.cid(), p.header().cid());
                assertEquals(first.callNumber(), p.header().callNumber());
                assertEquals(!last, p.header().hasFlag(PacketFlags.JUMBO_PACKET), where(name, d));
                if (last) {
                    assertTrue(p.payload().readableBytes() <= RxConstants.JUMBO_BUFFER_SIZE);
                } else {
                    assertEquals(RxConstants.JUMBO_BUFFER_SIZE, p.payload().readableBytes(), where(name, d));
                    assertFalse(p.header().hasFlag(PacketFlags.LAST_PACKET));
                }
            }
        });
        if (name.equals("send-jumbo") || name.equals("recv-jumbo")) {
            assertTrue(jumbograms[0] > 10, name + " jumbograms: " + jumbograms[0]);
        } else {
            assertEquals(0, jumbograms[0], name);
        }
    }

    /**
     * Serials are per connection and sending side, and every packet or sub-packet takes the next one (§1), so
     * each datagram's first serial follows the previous datagram's last serial of the same connection and
     * direction. Connectionless DEBUG/VERSION packets (epoch 999) and the bad-version probe's packets are
     * outside the rule.
     */
    @ParameterizedTest
    @FieldSource("CAPTURES")
    void serialsAreContiguousPerConnectionAndDirectionIncludingSubPackets(String name,
                                                                          CountingByteBufAllocator alloc) {
        Map<String, Integer> lastSerial = new HashMap<>();
        int[] checked = {0};
        forEachDecoded(name, alloc, (d, packets) -> {
            RxHeader first = packets.get(0).header();
            if (first.epoch() == RxConstants.DEBUG_EPOCH || (name.equals("bad-version") && d.clientToServer())) {
                assertTrue(first.epoch() != RxConstants.DEBUG_EPOCH || first.serial() == 0);
                return;
            }
            String key = d.direction() + "/" + Integer.toHexString(first.epoch()) + "/"
                    + Integer.toHexString(first.connectionId());
            Integer previous = lastSerial.get(key);
            if (previous != null) {
                assertEquals(previous + 1, first.serial(), where(name, d) + " serial gap on " + key);
                checked[0]++;
            }
            lastSerial.put(key, packets.get(packets.size() - 1).header().serial());
        });
        if (!name.equals("rxdebug")) {
            assertTrue(checked[0] > 0);
        }
    }

    @ParameterizedTest
    @FieldSource("CAPTURES")
    void lastReplyDataOfEachCallEndsWithTheCookie(String name, CountingByteBufAllocator alloc) {
        List<Integer> calls = new ArrayList<>();
        forEachDecoded(name, alloc, (d, packets) -> {
            RxPacket last = packets.get(packets.size() - 1);
            if (!d.clientToServer() && last instanceof DataPacket data
                    && data.header().hasFlag(PacketFlags.LAST_PACKET)) {
                ByteBuf p = data.payload();
                assertTrue(p.readableBytes() >= 4);
                assertEquals(COOKIE, p.getInt(p.writerIndex() - 4), where(name, d));
                calls.add(data.header().callNumber());
            }
        });
        List<Integer> expected = switch (name) {
            case "send-jumbo", "rpc" -> List.of(1, 2, 3);
            case "recv-jumbo", "send-nojumbo" -> List.of(1, 2);
            default -> List.of();
        };
        assertEquals(expected, calls, name);
    }

    @Test
    void rxdebugRepliesDecodeToWhatRxdebugPrinted(CountingByteBufAllocator alloc) {
        List<DebugRequest> requests = new ArrayList<>();
        List<RxPacket> replies = new ArrayList<>();
        forEachDecoded("rxdebug", alloc, (d, packets) -> {
            RxPacket p = packets.get(0);
            assertEquals(RxConstants.DEBUG_EPOCH, p.header().epoch());
            assertEquals(0, p.header().cid());
            assertEquals(0, p.header().serial());
            if (d.clientToServer()) {
                assertEquals(PacketFlags.CLIENT_INITIATED | PacketFlags.LAST_PACKET, p.header().flags());
                if (p instanceof DebugRequest r) {
                    requests.add(r);
                }
            } else {
                assertEquals(PacketFlags.LAST_PACKET, p.header().flags());
                replies.add(p);
            }
        });
        assertEquals(14, replies.size());
        assertEquals(13, requests.size());

        // rxdebug -version: "AFS version: OpenAFS 1.8.9-1+deb12u1-debian 2024-12-25"
        VersionPacket version = assertInstanceOf(VersionPacket.class, replies.get(0));
        assertEquals(RxConstants.VERSION_REPLY_SIZE, version.bodyLength());
        assertEquals("OpenAFS 1.8.9-1+deb12u1-debian 2024-12-25", version.versionString());

        // "Free packets: 350/1043, packet reclaims: 0, calls: 8, used FDs: 5", "not waiting for packets.",
        // "0 calls waiting for a thread", "20 threads are idle", "0 calls have waited for a thread"
        DebugStats stats = DebugStats.decode(((DebugReply) replies.get(1)).body());
        assertEquals(new DebugStats(350, 0, 8, 0, 5, DebugStats.VERSION, 0, 20, 0, 1043), stats);
        assertEquals(DebugRequest.GETSTATS, requests.get(0).debugType());

        assertEquals(DebugRequest.RXSTATS, requests.get(1).debugType());
        RxStatistics rx = RxStatistics.decode(((DebugReply) replies.get(2)).body());
        assertNotNull(rx);
        assertEquals(253, rx.packetRequests()); // "allocs 253"
        assertEquals(87, rx.packetsRead(PacketType.DATA)); // "packets read: data 87 ack 86 ... debug 2"
        assertEquals(86, rx.packetsRead(PacketType.ACK));
        assertEquals(2, rx.packetsRead(PacketType.DEBUG));
        assertEquals(0, rx.packetsRead(PacketType.VERSION));
        assertEquals(87, rx.dataPacketsRead()); // "other read counters: data 87, ack 86, dup 0 spurious 5 dally 0"
        assertEquals(86, rx.ackPacketsRead());
        assertEquals(0, rx.dupPacketsRead());
        assertEquals(5, rx.spuriousPacketsRead());
        assertEquals(0, rx.ignorePacketDally());
        assertEquals(52, rx.packetsSent(PacketType.DATA)); // "packets sent: data 52 ack 118 ..."
        assertEquals(118, rx.packetsSent(PacketType.ACK));
        assertEquals(118, rx.ackPacketsSent()); // "other send counters: ack 118, data 148 (not resends),
        assertEquals(148, rx.dataPacketsSent()); //  resends 0, pushed 0, acked&ignored 625"
        assertEquals(0, rx.dataPacketsReSent());
        assertEquals(0, rx.dataPacketsPushed());
        assertEquals(625, rx.ignoreAckedPacket());
        assertEquals(125, rx.nRttSamples()); // "Average rtt is 0.000, with 125 samples"
        assertEquals(0, Math.round(rx.totalRttMicros() / 125.0 / 1000.0)); // average rounds to 0 ms
        assertEquals("0.000", String.format("%.3f", rx.minRttMicros() / 1e6)); // "Minimum rtt is 0.000,
        assertEquals("0.001", String.format("%.3f", rx.maxRttMicros() / 1e6)); //  maximum is 0.001"
        assertEquals(3, rx.nServerConns()); // "3 server connections, 0 client connections, 3 peer structs,
        assertEquals(0, rx.nClientConns()); //  3 call structs, 0 free call structs"
        assertEquals(3, rx.nPeerStructs());
        assertEquals(3, rx.nCallStructs());
        assertEquals(0, rx.nFreeCallStructs());
        assertEquals(0, rx.netSendFailures()); // "sendFailed 0, fatalErrors 0"
        assertEquals(0, rx.fatalErrors());

        // rxdebug -allconnections: GETSTATS, then GETALLCONN 0..3 (the 4th is the end marker)
        assertEquals(DebugStats.decode(((DebugReply) replies.get(3)).body()), stats);
        long[][] conns = { // port, epoch, cid, serial, callNumber[0] as printed
            {51992, 0xbc0dfdefL, 0xc895b748L, 4, 3},
            {50000, 0xa392e605L, 0xabcdc028L, 119, 3},
            {45885, 0xbbe85a75L, 0x338f5ac8L, 143, 2}};
        for (int i = 0; i < conns.length; i++) {
            assertEquals(DebugRequest.GETALLCONN, requests.get(3 + i).debugType());
            assertEquals(i, requests.get(3 + i).index());
            DebugConn c = DebugConn.decode(((DebugReply) replies.get(4 + i)).body());
            assertNotNull(c);
            assertFalse(c.isEnd());
            assertEquals(0x7f000001, c.host()); // "Connection from host 127.0.0.1"
            assertEquals(conns[i][0], c.port());
            assertEquals((int) conns[i][1], c.epoch()); // "Cuid epoch/cid"
            assertEquals((int) conns[i][2], c.cid());
            assertEquals((int) conns[i][3], c.serial()); // "serial N"
            assertEquals(1444, c.natMTU()); // "natMTU 1444"
            assertEquals(0, c.securityIndex()); // "security index 0"
            assertEquals(DebugConn.TYPE_SERVER, c.type()); // "server conn"
            assertEquals(0, c.error());
            // "call 0: # 3, state dally, mode: eof, flags: receive_done"; calls 1-3 "# 0, state not initialized"
            assertEquals((int) conns[i][4], c.callNumber(0));
            assertEquals(3, c.callState(0)); // RX_STATE_DALLY
            assertEquals(4, c.callMode(0)); // RX_MODE_EOF
            assertEquals(0x20, c.callFlags(0)); // RX_CALL_RECEIVE_DONE
            for (int ch = 1; ch < 4; ch++) {
                assertEquals(0, c.callNumber(ch));
                assertEquals(0, c.callState(ch));
            }
            assertArrayEquals(new int[DebugConn.SEC_STATS_WORDS], c.secStats()); // rxnull: zeroed stats
        }
        assertTrue(DebugConn.decode(((DebugReply) replies.get(7)).body()).isEnd());
        assertEquals(DebugConn.end(), DebugConn.decode(((DebugReply) replies.get(7)).body()));

        // rxdebug -noconns -peers -long: GETSTATS, GETCONN 0 (no interesting conns), then GETPEER 0..3
        assertEquals(DebugRequest.GETSTATS, requests.get(7).debugType());
        assertEquals(DebugRequest.GETCONN, requests.get(8).debugType());
        assertTrue(DebugConn.decode(((DebugReply) replies.get(9)).body()).isEnd());
        long[][] peers = { // port, nSent, bytesSent, bytesReceived, rtt ms, cwind, nDgram
            {50000, 3, 5659, 300732, 3000, 2, 1},
            {45885, 142, 64494, 3571, 0, 32, 4},
            {51992, 3, 140, 232, 3000, 2, 1}};
        for (int i = 0; i < peers.length; i++) {
            assertEquals(DebugRequest.GETPEER, requests.get(9 + i).debugType());
            assertEquals(i, requests.get(9 + i).index());
            DebugPeer p = DebugPeer.decode(((DebugReply) replies.get(10 + i)).body());
            assertNotNull(p);
            assertEquals(0x7f000001, p.host()); // "Peer at host 127.0.0.1, port N"
            assertEquals(peers[i][0], p.port());
            assertEquals(1444, p.ifMTU()); // "ifMTU 1444  natMTU 1444  maxMTU 5692"
            assertEquals(1444, p.natMTU());
            assertEquals(5692, p.maxMTU());
            assertEquals(peers[i][1], p.nSent()); // "packets sent N  packet resends 0"
            assertEquals(0, p.reSends());
            assertEquals(peers[i][2], p.bytesSent()); // "bytes sent high 0 low N"
            assertEquals(peers[i][3], p.bytesReceived()); // "bytes received high 0 low N"
            assertEquals(peers[i][4], p.rtt() >> 3); // "rtt N msec" (rtt is in 1/8 ms)
            assertEquals(0, p.rttDev() >> 2); // "rtt_dev 0 msec" (1/4 ms)
            assertEquals(0, p.timeoutSec()); // "timeout 0.000 sec"
            assertEquals(0, p.timeoutUsec());
            assertEquals(0, p.inPacketSkew()); // "in/out packet skew: 0/0"
            assertEquals(0, p.outPacketSkew());
            assertEquals(peers[i][5], p.cwind()); // "congestion window N, MTU 1444"
            assertEquals(1444, p.mtu());
            assertEquals(peers[i][6], p.nDgramPackets()); // "current/if/max jumbogram size: N/4/4"
            assertEquals(4, p.ifDgramPackets());
            assertEquals(4, p.maxDgramPackets());
        }
        assertTrue(DebugPeer.decode(((DebugReply) replies.get(13)).body()).isEnd());
        assertEquals(DebugPeer.end(), DebugPeer.decode(((DebugReply) replies.get(13)).body()));
    }

    @ParameterizedTest
    @FieldSource("CAPTURES")
    void debugReplyStructsReencodeToTheCapturedBytes(String name, CountingByteBufAllocator alloc) {
        forEachDecoded(name, alloc, (d, packets) -> {
            if (!(packets.get(0) instanceof DebugReply reply)) {
                return;
            }
            byte[] body = reply.body();
            byte[] again = switch (body.length) {
                case DebugStats.SIZE -> DebugStats.decode(body).toBody();
                case DebugConn.SIZE -> DebugConn.decode(body).toBody();
                case DebugPeer.SIZE -> DebugPeer.decode(body).toBody();
                case RxStatistics.SIZE -> RxStatistics.decode(body).toBody();
                default -> throw new AssertionError(where(name, d) + " unexpected debug reply size " + body.length);
            };
            assertArrayEquals(body, again, where(name, d));
        });
    }
}
