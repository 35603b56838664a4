// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine.connection;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.rx4j.engine.EngineHarness.REMOTE;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.rx4j.config.RxConfig;
import org.rx4j.engine.EngineHarness;
import org.rx4j.engine.FakePeer;
import org.rx4j.engine.RecordingApps.Client;
import org.rx4j.engine.RecordingApps.Service;
import org.rx4j.engine.call.Call;
import org.rx4j.engine.call.CallState;
import org.rx4j.wire.AbortCodes;
import org.rx4j.wire.AbortPacket;
import org.rx4j.wire.PacketFlags;
import org.rx4j.wire.PacketType;

/**
 * Busy channels (docs/robustness.md "Rule: busy channels and workers"): calls beyond a connection's 4 channels wait in
 * FIFO order and within {@code RxConfig.limits().maxPendingCalls()} (deadline and cancellation while waiting:
 * CallDeadlineTest); a server answers a new call on a channel still busy with an unfinished call with BUSY, as OpenAFS
 * does.
 */
class BusyChannelTest {
    private static final int SVC = 147;

    @Test
    void callsWaitingForAChannelStartInFifoOrderAndTheQueueIsBounded() {
        EngineHarness h = new EngineHarness(RxConfig.builder().maxPendingCalls(3).build());
        Connection conn = h.engine.connect(REMOTE, SVC, 0);
        List<Client> clients = new ArrayList<>();
        for (int i = 0; i < 7; i++) {
            Client c = new Client(() -> h.now, 100);
            c.start(h.engine, conn);
            clients.add(c);
        }
        assertEquals(3, conn.waitingCalls());
        IllegalStateException full = assertThrows(IllegalStateException.class,
                () -> new Client(() -> h.now, 100).start(h.engine, conn));
        assertTrue(full.getMessage().contains("waiting"), full.getMessage());
        assertEquals(3, conn.waitingCalls(), "the refused call left nothing behind");
        assertEquals(4, h.dataSent().size(), "waiting calls send nothing");

        FakePeer server = FakePeer.serverOf(conn);
        // Channels free in the order 3, 1, 0: the waiting calls take them in the order they were made.
        int[] freed = {3, 1, 0};
        for (int k = 0; k < freed.length; k++) {
            int ch = freed[k];
            h.deliver(server.data(ch, 1, 1, PacketFlags.LAST_PACKET, 10));
            Call next = clients.get(4 + k).call;
            assertEquals(CallState.ACTIVE, next.state(), "waiting call " + k);
            assertEquals(ch, next.channel());
            assertEquals(3 - k - 1, conn.waitingCalls());
        }
    }

    @Test
    void aNewCallOnAChannelStillBusyIsAnsweredWithBusyAndAdmittedOnItsResend() {
        EngineHarness h = new EngineHarness(RxConfig.builder().checkReach(false).build());
        Service svc = new Service(() -> h.now, -1); // never replies: the call stays unfinished
        h.engine.registerService(SVC, 0, svc);
        FakePeer client = FakePeer.client(0x12340000, 0x100, SVC);
        h.deliver(client.data(0, 1, 1, 0, 1412));
        assertEquals(1, svc.newCalls());
        Call old = svc.calls.get(0);

        h.clear();
        h.deliver(client.data(0, 2, 1, PacketFlags.LAST_PACKET, 20));
        assertEquals(1, svc.newCalls(), "not admitted while the channel was busy");
        assertEquals(CallState.ERROR, old.state());
        assertEquals(AbortCodes.RX_CALL_DEAD, old.error());
        List<EngineHarness.Datagram> busy = h.sentOfType(PacketType.BUSY);
        assertEquals(1, busy.size());
        assertEquals(2, busy.get(0).first().header().callNumber());
        assertEquals(0, busy.get(0).first().header().channel());
        List<AbortPacket> aborts = h.abortsSent();
        assertEquals(1, aborts.size());
        assertEquals(1, aborts.get(0).header().callNumber(), "the old call's ABORT");

        h.deliver(client.data(0, 2, 1, PacketFlags.LAST_PACKET, 20));
        assertEquals(2, svc.newCalls(), "the resend finds the channel free");
        assertTrue(svc.record(1).readComplete);
        assertNull(h.engine.serverConnections().iterator().next().call(0, 1));
    }
}
