// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine;

import org.rx4j.config.RxConfig;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.rx4j.engine.EngineHarness.MS;
import static org.rx4j.engine.EngineHarness.REMOTE;
import static org.rx4j.engine.EngineHarness.S;
import static org.rx4j.engine.EngineHarness.bytes;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.rx4j.engine.RecordingApps.Client;
import org.rx4j.engine.RecordingApps.Service;
import org.rx4j.engine.call.Call;
import org.rx4j.engine.call.CallListener;
import org.rx4j.engine.call.CallState;
import org.rx4j.engine.connection.Connection;
import org.rx4j.wire.AbortCodes;
import org.rx4j.wire.AbortPacket;
import org.rx4j.wire.PacketFlags;
import org.rx4j.wire.PacketType;

/**
 * Aborts and error packets (rx-wire-facts.md §2, §6.5, §7): connection and call aborts, BUSY, ACKALL, unknown
 * packet types and unknown services.
 */
class ErrorHandlingTest {
    private static final int SVC = 147;
    private static final RxConfig NO_REACH = RxConfig.builder().checkReach(false).build();

    private record FourCalls(SimNetwork net, SimApps.BulkServer server, Connection conn, SimApps.BulkClient[] clients) {
    }

    private static FourCalls fourCalls(long bytes, long seed) {
        SimNetwork net = new SimNetwork(RxConfig.defaults(), RxConfig.defaults(), LinkModel.delay(MS),
                LinkModel.delay(MS), seed);
        SimApps.BulkServer server = new SimApps.BulkServer(net);
        net.server().engine.registerService(SVC, 0, server);
        Connection conn = net.client().engine.connect(SimNetwork.SERVER, SVC, 0);
        SimApps.BulkClient[] clients = new SimApps.BulkClient[4];
        for (int i = 0; i < 4; i++) {
            clients[i] = new SimApps.BulkClient(net, bytes, bytes);
            clients[i].start(conn);
        }
        net.runFor(30 * MS);
        Connection serverConn = net.server().engine.serverConnections().iterator().next();
        for (int ch = 0; ch < 4; ch++) {
            assertEquals(CallState.ACTIVE, conn.call(ch).state());
            assertEquals(CallState.ACTIVE, serverConn.call(ch).state());
        }
        return new FourCalls(net, server, conn, clients);
    }

    private static void connectionAbortFailsEverything(boolean byClient) {
        FourCalls f = fourCalls(1L << 40, byClient ? 41 : 42);
        Connection serverConn = f.net().server().engine.serverConnections().iterator().next();
        if (byClient) {
            f.net().client().engine.abortConnection(f.net().now(), f.conn(), 17);
        } else {
            f.net().server().engine.abortConnection(f.net().now(), serverConn, 17);
        }
        assertTrue(f.net().runUntil(() -> f.server().callsFailed == 4
                && List.of(f.clients()).stream().allMatch(c -> c.done), 5 * S));
        assertEquals(List.of(17, 17, 17, 17), f.server().errors);
        for (SimApps.BulkClient c : f.clients()) {
            assertEquals(17, c.error);
        }
        assertThrows(IllegalStateException.class,
                () -> f.net().client().engine.newCall(f.net().now(), f.conn(), CallListener.NONE),
                "an aborted connection takes no new calls");
    }

    @Test
    void aConnectionAbortByTheClientFailsAllFourCallsOnBothSides() {
        connectionAbortFailsEverything(true);
    }

    @Test
    void aConnectionAbortByTheServerFailsAllFourCallsOnBothSides() {
        connectionAbortFailsEverything(false);
    }

    @Test
    void aCallAbortFailsOnlyThatCall() {
        FourCalls f = fourCalls(4 << 20, 43);
        f.conn().call(1).abort(f.net().now(), 99);
        assertTrue(f.net().runUntil(() -> List.of(f.clients()).stream().allMatch(c -> c.done), 60 * S));
        assertEquals(99, f.clients()[1].error);
        for (int i : new int[] {0, 2, 3}) {
            SimApps.BulkClient c = f.clients()[i];
            assertEquals(0, c.error);
            assertEquals(4 << 20, c.reader.received);
            assertEquals(0, c.reader.mismatches);
        }
        f.net().runFor(S);
        assertEquals(List.of(99), f.server().errors);
        assertEquals(3, f.server().callsCompleted);
        assertEquals(0, f.server().mismatches);
    }

    @Test
    void busyMarksTheChannelBusyForNewCalls() {
        EngineHarness h = new EngineHarness(RxConfig.defaults());
        Connection conn = h.engine.connect(REMOTE, SVC, 0);
        FakePeer server = FakePeer.serverOf(conn);
        Client first = new Client(() -> h.now, 10);
        first.start(h.engine, conn);
        h.deliver(server.data(0, 1, 1, PacketFlags.LAST_PACKET, 10));
        assertTrue(first.completed);

        // Without BUSY the freed channel 0 would be chosen again (see the control connection below).
        h.deliver(server.control(PacketType.BUSY, 0, 2));
        Client second = new Client(() -> h.now, 10);
        second.start(h.engine, conn);
        assertEquals(1, second.call.channel(), "the busy channel is avoided");

        Connection control = h.engine.connect(REMOTE, SVC, 0);
        Client a = new Client(() -> h.now, 10);
        a.start(h.engine, control);
        h.deliver(FakePeer.serverOf(control).data(0, 1, 1, PacketFlags.LAST_PACKET, 10));
        Client b = new Client(() -> h.now, 10);
        b.start(h.engine, control);
        assertEquals(0, b.call.channel());
        assertEquals(2, b.call.callNumber());

        // When only busy channels are free, a busy one is still used.
        new Client(() -> h.now, 10).start(h.engine, conn);
        new Client(() -> h.now, 10).start(h.engine, conn);
        Client last = new Client(() -> h.now, 10);
        last.start(h.engine, conn);
        assertEquals(0, last.call.channel());
        assertEquals(CallState.ACTIVE, last.call.state());
    }

    @Test
    void ackAllAcknowledgesEverythingSent() {
        EngineHarness h = new EngineHarness(NO_REACH);
        Service svc = new Service(() -> h.now, 3 * 1412 - 100);
        h.engine.registerService(SVC, 0, svc);
        FakePeer client = FakePeer.client(0x80000010, 0x20, SVC);
        h.deliver(client.data(0, 1, 1, PacketFlags.LAST_PACKET, 20));
        assertEquals(3, h.dataSent().size());
        Call call = svc.calls.get(0);
        assertEquals(CallState.HOLD, call.state());
        h.deliver(client.control(PacketType.ACKALL, 0, 1));
        assertTrue(svc.record(0).completed, "an all-acked reply completes the server call");
        assertEquals(0, svc.record(0).code);
        h.clear();
        h.advance(10 * S);
        assertTrue(h.dataSent().isEmpty(), "nothing left to resend");

        EngineHarness c = new EngineHarness(RxConfig.defaults());
        Connection conn = c.engine.connect(REMOTE, SVC, 0);
        Call request = c.engine.newCall(c.now, conn, CallListener.NONE);
        request.write(c.now, bytes(4 * 1412));
        assertEquals(4, request.queuedPackets());
        c.deliver(FakePeer.serverOf(conn).control(PacketType.ACKALL, 0, 1));
        assertEquals(0, request.queuedPackets());
        c.clear();
        c.advance(10 * S);
        assertTrue(c.dataSent().isEmpty());
        assertEquals(CallState.ACTIVE, request.state());
    }

    @Test
    void anUnknownPacketTypeOnACallAbortsThatCallWithProtocolError() {
        EngineHarness h = new EngineHarness(NO_REACH);
        Service svc = new Service(() -> h.now, -1);
        h.engine.registerService(SVC, 0, svc);
        FakePeer client = FakePeer.client(0x80000010, 0x20, SVC);
        h.deliver(client.data(0, 1, 1, 0, 1412));
        h.deliver(client.data(1, 1, 1, 0, 1412));
        h.clear();
        h.deliver(client.control(12, 0, 1));
        List<AbortPacket> aborts = h.abortsSent();
        assertEquals(1, aborts.size());
        assertEquals(AbortCodes.RX_PROTOCOL_ERROR, aborts.get(0).code());
        assertEquals(1, aborts.get(0).header().callNumber());
        assertEquals(0, aborts.get(0).header().channel());
        assertEquals(AbortCodes.RX_PROTOCOL_ERROR, svc.record(0).code);
        assertFalse(svc.record(1).completed, "the call on channel 1 is untouched");
        h.deliver(client.data(1, 1, 2, PacketFlags.LAST_PACKET, 10));
        assertTrue(svc.record(1).readComplete);
    }

    @Test
    void anUnknownPacketTypeWithCallNumberZeroAbortsTheConnection() {
        EngineHarness h = new EngineHarness(NO_REACH);
        Service svc = new Service(() -> h.now, -1);
        h.engine.registerService(SVC, 0, svc);
        FakePeer client = FakePeer.client(0x80000010, 0x20, SVC);
        h.deliver(client.data(0, 1, 1, 0, 1412));
        h.deliver(client.data(1, 1, 1, 0, 1412));
        h.clear();
        h.deliver(client.control(12, 0, 0));
        List<AbortPacket> aborts = h.abortsSent();
        assertEquals(1, aborts.size());
        assertEquals(AbortCodes.RX_PROTOCOL_ERROR, aborts.get(0).code());
        assertEquals(0, aborts.get(0).header().callNumber(), "a connection abort");
        assertEquals(AbortCodes.RX_PROTOCOL_ERROR, svc.record(0).code);
        assertEquals(AbortCodes.RX_PROTOCOL_ERROR, svc.record(1).code);
    }

    @Test
    void anUnknownServiceGetsOneRawAbortWithInvalidOperation() {
        EngineHarness h = new EngineHarness(NO_REACH);
        Service svc = new Service(() -> h.now, -1);
        h.engine.registerService(SVC, 0, svc);
        FakePeer client = FakePeer.client(0x80000010, 0x20, 999);
        h.deliver(client.data(2, 7, 1, PacketFlags.LAST_PACKET, 10));
        assertEquals(1, h.sent.size());
        AbortPacket abort = (AbortPacket) h.sent.get(0).first();
        assertEquals(AbortCodes.RX_INVALID_OPERATION, abort.code());
        assertEquals(client.epoch, abort.header().epoch());
        assertEquals(client.cid | 2, abort.header().cid());
        assertEquals(7, abort.header().callNumber(), "callNumber copied from the offending packet");
        assertEquals(0, abort.header().serial());
        assertEquals(0, abort.header().flags() & PacketFlags.CLIENT_INITIATED);
        assertEquals(REMOTE, h.sent.get(0).to());
        assertTrue(h.engine.serverConnections().isEmpty());
        assertEquals(0, svc.newCalls());
        // An ABORT is never answered.
        h.clear();
        h.deliver(client.abort(2, 7, -1));
        assertTrue(h.sent.isEmpty());

        // End to end: the client's call fails with -2.
        SimNetwork net = new SimNetwork(RxConfig.defaults(), RxConfig.defaults(), LinkModel.delay(MS),
                LinkModel.delay(MS), 44);
        net.server().engine.registerService(SVC, 0, new SimApps.BulkServer(net));
        Connection conn = net.client().engine.connect(SimNetwork.SERVER, 999, 0);
        SimApps.BulkClient c = new SimApps.BulkClient(net, 100, 10);
        c.start(conn);
        assertTrue(net.runUntil(() -> c.done, 5 * S));
        assertEquals(AbortCodes.RX_INVALID_OPERATION, c.error);
    }
    @Test
    void aPingForAFailedCallIsAnsweredWithItsAbort() {
        EngineHarness h = new EngineHarness(RxConfig.defaults());
        Connection conn = h.engine.connect(REMOTE, SVC, 0);
        FakePeer server = FakePeer.serverOf(conn);
        Call call = h.engine.newCall(h.now, conn, CallListener.NONE);
        call.write(h.now, bytes(100));
        call.abort(h.now, 77);
        h.clear();

        // rx-wire-facts.md §2: an ACK with REQUEST_ACK gets a PING_RESPONSE, or the ABORT if the call is in error.
        h.deliver(server.ping(0, 1));
        assertTrue(h.acksSent().isEmpty(), "no PING_RESPONSE keeps the failed call alive: " + h.sent);
        List<AbortPacket> aborts = h.abortsSent();
        assertEquals(1, aborts.size());
        assertEquals(77, aborts.get(0).code());
        assertEquals(1, aborts.get(0).header().callNumber());
        assertEquals(0, aborts.get(0).header().channel());
    }
}
