// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine.debug;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.Unpooled;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.rx4j.config.DebugReplies;
import org.rx4j.config.Reachability;
import org.rx4j.config.RxConfig;
import org.rx4j.counters.RxCounter;
import org.rx4j.engine.EngineHarness;
import org.rx4j.engine.LinkModel;
import org.rx4j.engine.SimNetwork;
import org.rx4j.engine.call.Call;
import org.rx4j.engine.call.CallListener;
import org.rx4j.engine.connection.Connection;
import org.rx4j.wire.AbortCodes;
import org.rx4j.wire.AbortPacket;
import org.rx4j.wire.AckPacket;
import org.rx4j.wire.AckReason;
import org.rx4j.wire.ControlPacket;
import org.rx4j.wire.DataPacket;
import org.rx4j.wire.DebugRequest;
import org.rx4j.wire.PacketFlags;
import org.rx4j.wire.PacketType;
import org.rx4j.wire.RxConstants;
import org.rx4j.wire.RxHeader;
import org.rx4j.wire.RxPacket;
import org.rx4j.wire.VersionPacket;

/**
 * docs/robustness.md "Rule: unsolicited traffic, loops and amplification": connectionless queries and raw ABORTs
 * between two rx4j endpoints never loop, replies never provoke replies, and an unauthenticated datagram gets at most
 * one small reply — measured in bytes.
 */
class UnsolicitedTrafficTest {
    private static final int SVC = 147;
    private static final long MS = 1_000_000L;
    private static final long S = 1_000 * MS;

    private static SimNetwork twoEndpoints() {
        // rxdebug's unpadded queries get replies larger than themselves: allowed here, where loops are the subject.
        RxConfig config = RxConfig.builder().debugReplies(DebugReplies.ALWAYS).build();
        SimNetwork net = new SimNetwork(config, config, LinkModel.delay(MS), LinkModel.delay(MS), 6);
        net.client().engine.setDebugResponder(new EngineDebugResponder());
        net.server().engine.setDebugResponder(new EngineDebugResponder());
        net.server().engine.registerService(SVC, 0, call -> { });
        return net;
    }

    private static RxHeader h(int epoch, int cid, int callNumber, int seq, int type, int flags, int service) {
        return new RxHeader(epoch, cid, callNumber, seq, 1, type, flags, 0, 0, 0, service);
    }

    @Test
    void queriesAndTheirRepliesBetweenTwoEndpointsNeverLoop() {
        SimNetwork net = twoEndpoints();
        int ci = PacketFlags.CLIENT_INITIATED;
        // One query of each kind with CLIENT_INITIATED (answered once), and the same without it (never answered).
        for (int flags : new int[] {ci, 0}) {
            net.inject(true, new VersionPacket(h(0, 0, 0, 0, PacketType.VERSION, flags, 0), new byte[0]));
            for (int type : new int[] {DebugRequest.GETSTATS, DebugRequest.GETALLCONN, DebugRequest.GETPEER}) {
                net.inject(true, new DebugRequest(h(0, 0, 0, 0, PacketType.DEBUG, flags, 0), type, 0, 0));
            }
        }
        net.runFor(10 * S);
        assertEquals(4, net.server().datagramsSent, "one reply to each client-initiated query, none to the rest");
        assertEquals(0, net.client().datagramsSent, "the replies (no CLIENT_INITIATED) provoke nothing");
        net.shutdown();
    }

    @Test
    void rawAbortsCarryTheRightDirectionAndProvokeNothingFromTheClientSide() {
        SimNetwork net = twoEndpoints();
        List<RxPacket> serverSent = new ArrayList<>();
        net.sendTap = (now, fromClient, packets) -> {
            if (!fromClient) {
                serverSent.addAll(packets);
            }
        };
        // A client call to a service the server does not have: one raw ABORT back, toward the client side.
        Connection conn = net.client().engine.connect(SimNetwork.SERVER, 999, 0);
        int[] error = {1};
        Call call = net.client().engine.newCall(net.now(), conn, new CallListener() {
            @Override
            public boolean wantsData(Call c) {
                return false; // leaves the bytes in the call
            }

            @Override
            public void onData(Call c, io.netty.buffer.ByteBuf b, long now) {
                b.release();
            }

            @Override
            public void onWritable(Call c) {
            }

            @Override
            public void onComplete(Call c, int errorCode) {
                error[0] = errorCode;
            }
        });
        // 20 bytes: no reachability PING follows it (the server may not answer with more bytes than it got), so the
        // client sends exactly one datagram.
        call.write(net.now(), Unpooled.wrappedBuffer(new byte[20]));
        call.finishSending(net.now());
        net.runFor(30 * S);
        assertEquals(AbortCodes.RX_INVALID_OPERATION, error[0]);
        assertEquals(1, serverSent.size(), "one raw ABORT");
        AbortPacket abort = (AbortPacket) serverSent.get(0);
        assertTrue(!abort.header().isClientInitiated(), "it answers a client, so it goes without CLIENT_INITIATED");
        assertEquals(999, abort.header().serviceId());
        assertEquals(1, net.client().datagramsSent, "the client sent its request and nothing after the ABORT");

        // Server-direction traffic for connections the client engine does not know: dropped, never answered.
        long before = net.client().datagramsSent;
        int epoch = 0x12345;
        net.inject(false, new AbortPacket(h(epoch, 0x800, 1, 0, PacketType.ABORT, 0, 999), -2));
        net.inject(false, new DataPacket(h(epoch, 0x800, 1, 1, PacketType.DATA, 0, SVC),
                Unpooled.wrappedBuffer(new byte[10])));
        net.inject(false, AckPacket.of(h(epoch, 0x800, 1, 0, PacketType.ACK, PacketFlags.REQUEST_ACK, SVC), 1, 0, 0,
                AckReason.PING, new byte[0], 1444, 1444, 32, 1));
        net.inject(false, new ControlPacket(h(epoch, 0x800, 1, 0, PacketType.BUSY, 0, SVC), new byte[0]));
        net.runFor(10 * S);
        assertEquals(before, net.client().datagramsSent, "rx4j's client side answers none of it");
        net.shutdown();
    }

    /** Bytes rx4j sends back to an address that sent one {@code probe} and never answers, over 60 s. */
    private static long[] replyTo(RxConfig config, RxPacket probe) {
        EngineHarness h = new EngineHarness(config);
        h.engine.setDebugResponder(new EngineDebugResponder());
        h.engine.registerService(SVC, 0, call -> { });
        h.engine.connect(EngineHarness.REMOTE2, 52, 0); // one connection for GETALLCONN to list
        long in = RxConstants.HEADER_SIZE + probe.bodyLength();
        h.deliver(probe);
        h.advance(60 * S);
        long bytes = 0;
        for (EngineHarness.Datagram d : h.sent) {
            for (RxPacket p : d.packets()) {
                bytes += RxConstants.HEADER_SIZE + p.bodyLength();
            }
        }
        long withheld = h.engine.totals().get(RxCounter.REPLIES_WITHHELD);
        h.engine.shutdown(h.now);
        return new long[] {h.sent.size(), bytes, in, withheld};
    }

    private static DataPacket data(int flags, int service, int bytes) {
        return new DataPacket(h(0x1111, 0x400, 1, 1, PacketType.DATA, PacketFlags.CLIENT_INITIATED | flags, service),
                Unpooled.wrappedBuffer(new byte[bytes]));
    }

    private static DebugRequest debug(int type, int pad) {
        return new DebugRequest(h(999, 0, 101, 0, PacketType.DEBUG, PacketFlags.CLIENT_INITIATED, 0), type, 0, pad);
    }

    /**
     * Amplification at most 3 (RFC 9000 §8.1), measured in the engine over 60 s of virtual time after one datagram from
     * a silent, non-loopback source (default configuration): at most one reply, never more than three times the bytes
     * in, and every reply that fits that bound goes out (the smallest DATA pays for the full PING).
     */
    @Test
    void anUnauthenticatedDatagramGetsAtMostOneReplyOfAtMostThreeTimesItsBytes() {
        int ci = PacketFlags.CLIENT_INITIATED;
        int ra = PacketFlags.REQUEST_ACK;
        // {label, probe, replies expected, replies withheld expected}
        Object[][] probes = {
            {"DATA seq 1, new connection, 100 B", data(0, SVC, 72), 1, 0},
            {"DATA seq 1, new connection, 48 B", data(0, SVC, 20), 1, 0},
            {"DATA seq 1, new connection, 32 B", data(0, SVC, 4), 1, 0},
            {"DATA seq 1, new connection, 28 B (no payload)", data(0, SVC, 0), 1, 0},
            {"DATA seq 1 + REQUEST_ACK, new connection, 100 B", data(ra, SVC, 72), 1, 1},
            // The REQUESTED ack waits for the source to prove reachable, however large the DATA (only the PING goes).
            {"DATA seq 1 + REQUEST_ACK, new connection, 1444 B", data(ra, SVC, 1416), 1, 1},
            {"DATA, unknown service, 32 B", data(0, 999, 4), 1, 0},
            {"DATA, unknown service, 28 B", data(0, 999, 0), 1, 0},
            {"ACK PING, unknown connection", AckPacket.of(h(0x1111, 0x400, 1, 0, PacketType.ACK, ci | ra, SVC), 1, 0,
                0, AckReason.PING, new byte[0], 1444, 1444, 32, 1), 0, 0},
            {"ABORT, unknown connection", new AbortPacket(h(0x1111, 0x400, 1, 0, PacketType.ABORT, ci, SVC), -1),
                0, 0},
            {"BUSY, unknown connection", new ControlPacket(h(0x1111, 0x400, 1, 0, PacketType.BUSY, ci, SVC),
                new byte[0]), 0, 0},
            {"VERSION (rxdebug -version, 29 B): reply cut to the string", new VersionPacket(h(999, 0, 101, 0,
                PacketType.VERSION, ci, 0), new byte[1]), 1, 0},
            {"VERSION padded to 93 B", new VersionPacket(h(999, 0, 101, 0, PacketType.VERSION, ci, 0),
                new byte[65]), 1, 0},
            {"DEBUG GETSTATS (36 B)", debug(DebugRequest.GETSTATS, 0), 1, 0},
            {"DEBUG GETSTATS padded to 84 B", debug(DebugRequest.GETSTATS, 48), 1, 0},
            {"DEBUG GETALLCONN (36 B)", debug(DebugRequest.GETALLCONN, 0), 0, 1},
            {"DEBUG GETALLCONN padded to 204 B", debug(DebugRequest.GETALLCONN, 168), 1, 0},
            {"DEBUG RXSTATS (36 B)", debug(DebugRequest.RXSTATS, 0), 0, 1},
            {"DEBUG GETPEER (36 B)", debug(DebugRequest.GETPEER, 0), 0, 1},
        };
        StringBuilder table = new StringBuilder();
        for (Object[] probe : probes) {
            long[] r = replyTo(RxConfig.defaults(), (RxPacket) probe[1]);
            table.append(String.format("%-56s in %4d B  out %d datagrams %4d B  withheld %d  amplification %.2f%n",
                    probe[0], r[2], r[0], r[1], r[3], (double) r[1] / r[2]));
            assertEquals((int) probe[2], r[0], probe[0] + ": replies");
            assertEquals((int) probe[3], r[3], probe[0] + ": replies withheld");
            assertTrue(r[1] <= Reachability.AMPLIFICATION_LIMIT * r[2],
                    probe[0] + ": at most 3 × the bytes in: " + r[1] + " > 3 × " + r[2]);
        }
        System.out.print(table);
    }

    /** The other policies: ALWAYS answers rxdebug's unpadded queries (OpenAFS), NEVER answers nothing. */
    @Test
    void debugReplyPoliciesAlwaysAndNever() {
        RxPacket version = new VersionPacket(h(999, 0, 101, 0, PacketType.VERSION, PacketFlags.CLIENT_INITIATED, 0),
                new byte[65]);
        assertEquals(1, replyTo(RxConfig.builder().debugReplies(DebugReplies.ALWAYS).build(),
                debug(DebugRequest.RXSTATS, 0))[0]);
        assertEquals(0, replyTo(RxConfig.builder().debugReplies(DebugReplies.NEVER).build(), version)[0]);
        assertEquals(1, replyTo(RxConfig.builder().debugReplies(DebugReplies.NO_AMPLIFICATION).build(), version)[0]);
        assertTrue(DebugReplies.LOOPBACK_OR_NO_AMPLIFICATION.allows(36, 312, true));
        assertTrue(!DebugReplies.NO_AMPLIFICATION.allows(36, 312, true));
        assertTrue(DebugReplies.NO_AMPLIFICATION.allows(29, 87, false) && !DebugReplies.NO_AMPLIFICATION.allows(29, 88,
                false), "three times the query, not more");
        // rxdebug -version's 29-byte query from a source that may be forged: the version string alone (≤ 87 bytes)
        // goes; a string too long for that is refused.
        RxPacket query = new VersionPacket(h(999, 0, 101, 0, PacketType.VERSION, PacketFlags.CLIENT_INITIATED, 0),
                new byte[1]);
        EngineHarness h = new EngineHarness(RxConfig.defaults());
        h.deliver(query);
        assertEquals(1, h.sent.size(), "rxdebug -version from another host is answered");
        VersionPacket reply = (VersionPacket) h.sent.get(0).packets().get(0);
        assertEquals("rx4j", reply.versionString());
        assertEquals(RxConstants.HEADER_SIZE + 5, RxConstants.HEADER_SIZE + reply.bodyLength(), "the string and its NUL");
        h.engine.shutdown(h.now);
        assertEquals(0, replyTo(RxConfig.builder().versionString("x".repeat(59)).build(), query)[0],
                "a 59-character string needs 88 bytes: refused");
        assertEquals(1, replyTo(RxConfig.builder().versionString("x".repeat(58)).build(), query)[0]);
    }

    /**
     * A legitimate client's smallest first request (a 4-byte opcode: 32 bytes, as every OpenAFS rxgen call with no
     * arguments, e.g. bos listhosts' GetCellName) pays for the server's full 65-byte PING at once, so neither an rx4j
     * client nor one that never PINGs (OpenAFS) waits for a retransmission. Virtual clock.
     */
    @Test
    void aTinyFirstRequestIsServedAfterOneRoundTripWithoutAResend() {
        SimNetwork net = new SimNetwork(RxConfig.defaults(), RxConfig.defaults(), LinkModel.delay(MS),
                LinkModel.delay(MS), 7);
        List<Long> startedAt = new ArrayList<>();
        net.server().engine.registerService(SVC, 0, call -> startedAt.add(net.now()));
        int[] clientData = {0};
        net.sendTap = (now, fromClient, packets) -> {
            for (RxPacket p : packets) {
                if (fromClient && p instanceof DataPacket) {
                    clientData[0]++;
                }
            }
        };
        Connection conn = net.client().engine.connect(SimNetwork.SERVER, SVC, 0);
        long t0 = net.now();
        for (int i = 0; i < 3; i++) { // three calls on one new connection
            Call call = net.client().engine.newCall(net.now(), conn, new CallListener() {
                @Override
                public boolean wantsData(Call c) {
                    return false; // leaves the bytes in the call
                }

                @Override
                public void onData(Call c, io.netty.buffer.ByteBuf b, long now) {
                    b.release();
                }

                @Override
                public void onWritable(Call c) {
                }

                @Override
                public void onComplete(Call c, int errorCode) {
                }
            });
            call.write(net.now(), Unpooled.buffer(4).writeInt(7));
            call.finishSending(net.now());
        }
        net.runFor(100 * MS);
        assertEquals(3, startedAt.size(), "all three calls started");
        for (long t : startedAt) {
            assertTrue(t - t0 <= 10 * MS, "started within a few round trips, not after the client's RTO: " + (t - t0));
        }
        assertEquals(3, clientData[0], "no request was sent twice");
        assertEquals(0, net.server().engine.totals().get(RxCounter.REPLIES_WITHHELD), "nothing withheld");
        net.shutdown();

        // A client that never PINGs (OpenAFS): its 32-byte DATA alone earns the full PING.
        EngineHarness h = new EngineHarness(RxConfig.defaults());
        List<Call> started = new ArrayList<>();
        h.engine.registerService(SVC, 0, started::add);
        h.deliver(data(PacketFlags.LAST_PACKET, SVC, 4));
        assertEquals(1, h.sent.size(), "32 bytes in pay for the PING at once");
        AckPacket ping = (AckPacket) h.sent.get(0).packets().get(0);
        assertEquals(AckReason.PING, ping.reason());
        assertTrue(ping.hasTrailer(), "with its trailer: 65 bytes for 32");
        h.deliver(AckPacket.of(h(0x1111, 0x400, 1, 0, PacketType.ACK, PacketFlags.CLIENT_INITIATED, SVC), 1, 0,
                ping.header().serial(), AckReason.PING_RESPONSE, new byte[0], 1444, 1444, 32, 4));
        assertEquals(1, started.size(), "its answer starts the call");
        h.engine.shutdown(h.now);
    }
}
