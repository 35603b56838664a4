package org.rx4j.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.Unpooled;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.rx4j.config.RxConfig;
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
 * Issue 12 rule 6: connectionless queries and raw ABORTs between two rx4j endpoints never loop, replies never
 * provoke replies, and an unauthenticated datagram gets at most one small reply — measured in bytes.
 */
class UnsolicitedTrafficTest {
    private static final int SVC = 147;
    private static final long MS = 1_000_000L;
    private static final long S = 1_000 * MS;

    private static SimNetwork twoEndpoints() {
        SimNetwork net = new SimNetwork(RxConfig.defaults(), RxConfig.defaults(), LinkModel.delay(MS),
                LinkModel.delay(MS), 6);
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
            public void onReadable(Call c) {
            }

            @Override
            public void onWritable(Call c) {
            }

            @Override
            public void onComplete(Call c, int errorCode) {
                error[0] = errorCode;
            }
        });
        call.write(net.now(), Unpooled.buffer(4).writeInt(1));
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
        long in = RxConstants.HEADER_SIZE + probe.bodyLength();
        h.deliver(probe);
        h.advance(60 * S);
        long bytes = 0;
        for (EngineHarness.Datagram d : h.sent) {
            for (RxPacket p : d.packets()) {
                bytes += RxConstants.HEADER_SIZE + p.bodyLength();
            }
        }
        h.engine.shutdown(h.now);
        return new long[] {h.sent.size(), bytes, in};
    }

    @Test
    void anUnauthenticatedDatagramGetsAtMostTheRepliesItAsksForNeverAStream() {
        int ci = PacketFlags.CLIENT_INITIATED;
        RxConfig config = RxConfig.defaults();
        // {label, probe, byte amplification must stay <= 1}
        Object[][] probes = {
            {"DATA seq 1, known service, new connection, 100 B",
                new DataPacket(h(0x1111, 0x400, 1, 1, PacketType.DATA, ci, SVC), Unpooled.wrappedBuffer(new byte[72])),
                true},
            {"DATA seq 1, known service, new connection, 32 B",
                new DataPacket(h(0x1111, 0x400, 1, 1, PacketType.DATA, ci, SVC), Unpooled.wrappedBuffer(new byte[4])),
                false},
            {"DATA seq 1 REQUEST_ACK, new connection, 100 B", new DataPacket(h(0x1111, 0x400, 1, 1, PacketType.DATA,
                ci | PacketFlags.REQUEST_ACK, SVC), Unpooled.wrappedBuffer(new byte[72])), false},
            {"DATA, unknown service",
                new DataPacket(h(0x1111, 0x400, 1, 1, PacketType.DATA, ci, 999), Unpooled.wrappedBuffer(new byte[4])),
                true},
            {"ACK PING, unknown connection", AckPacket.of(h(0x1111, 0x400, 1, 0, PacketType.ACK,
                ci | PacketFlags.REQUEST_ACK, SVC), 1, 0, 0, AckReason.PING, new byte[0], 1444, 1444, 32, 1), true},
            {"ABORT, unknown connection", new AbortPacket(h(0x1111, 0x400, 1, 0, PacketType.ABORT, ci, SVC), -1),
                true},
            {"BUSY, unknown connection", new ControlPacket(h(0x1111, 0x400, 1, 0, PacketType.BUSY, ci, SVC),
                new byte[0]), true},
            {"VERSION (rxdebug -version)", new VersionPacket(h(0, 0, 0, 0, PacketType.VERSION, ci, 0), new byte[0]),
                false},
            {"DEBUG GETSTATS", new DebugRequest(h(0, 0, 0, 0, PacketType.DEBUG, ci, 0), DebugRequest.GETSTATS, 0, 0),
                false},
        };
        StringBuilder table = new StringBuilder();
        for (Object[] probe : probes) {
            long[] r = replyTo(config, (RxPacket) probe[1]);
            table.append(String.format("%-50s in %4d B  out %2d datagrams %5d B  amplification %.2f%n", probe[0], r[2],
                    r[0], r[1], (double) r[1] / r[2]));
            // A datagram that asks for an ACK (REQUEST_ACK) also gets it, besides the reachability PING.
            int most = ((RxPacket) probe[1]).header().hasFlag(PacketFlags.REQUEST_ACK)
                    && ((RxPacket) probe[1]).header().type() == PacketType.DATA ? 2 : 1;
            assertTrue(r[0] <= most, probe[0] + ": at most " + most + " replies, never a stream: " + r[0]);
            if ((Boolean) probe[2]) {
                assertTrue(r[1] <= r[2], probe[0] + ": no more bytes out than in: " + r[1] + " > " + r[2]);
            }
        }
        System.out.print(table);
    }
}
