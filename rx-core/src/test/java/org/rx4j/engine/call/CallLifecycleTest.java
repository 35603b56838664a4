// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine.call;

import org.rx4j.config.RxConfig;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.rx4j.engine.EngineHarness.MS;
import static org.rx4j.engine.EngineHarness.REMOTE;
import static org.rx4j.engine.EngineHarness.S;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.rx4j.counters.RxCounter;
import org.rx4j.engine.EngineHarness;
import org.rx4j.engine.FakePeer;
import org.rx4j.engine.RecordingApps.Client;
import org.rx4j.engine.RecordingApps.Service;
import org.rx4j.engine.connection.Connection;
import org.rx4j.wire.AbortCodes;
import org.rx4j.wire.AbortPacket;
import org.rx4j.wire.AckPacket;
import org.rx4j.wire.AckReason;
import org.rx4j.wire.DataPacket;
import org.rx4j.wire.PacketFlags;
import org.rx4j.wire.PacketType;

/**
 * Calls on the 4 channels of a connection (rx-wire-facts.md §6, §7): call numbers, implicit end of a
 * server call by the next call, replay protection, server call creation, reachability and PING answers.
 */
class CallLifecycleTest {
    private static final int SVC = 147;
    private static final RxConfig NO_REACH = RxConfig.builder().checkReach(false).build();

    private static FakePeer newClient() {
        return FakePeer.client(0x80001230, 0x100, SVC);
    }

    @Test
    void callNumbersStartAtOnePerChannelAndRiseByOne() {
        EngineHarness h = new EngineHarness(RxConfig.defaults());
        Connection conn = h.engine.connect(REMOTE, SVC, 0);
        FakePeer server = FakePeer.serverOf(conn);
        for (int round = 1; round <= 3; round++) {
            h.clear();
            Client[] cs = new Client[4];
            for (int ch = 0; ch < 4; ch++) {
                cs[ch] = new Client(() -> h.now, 10);
                cs[ch].start(h.engine, conn);
            }
            Set<Integer> channels = new TreeSet<>();
            for (DataPacket d : h.dataSent()) {
                assertEquals(round, d.header().callNumber());
                assertEquals(1, d.header().seq());
                channels.add(d.header().channel());
            }
            assertEquals(Set.of(0, 1, 2, 3), channels);
            for (int ch = 0; ch < 4; ch++) {
                assertEquals(ch, cs[ch].call.channel());
                assertEquals(round, cs[ch].call.callNumber());
                assertEquals(round, conn.callNumber(ch));
                h.deliver(server.data(ch, round, 1, PacketFlags.LAST_PACKET, 10));
                assertTrue(cs[ch].completed);
                assertEquals(0, cs[ch].code);
            }
            h.advance(10 * MS);
        }
    }

    @Test
    void nextCallOnAChannelEndsThePreviousServerCallSuccessfully() {
        EngineHarness h = new EngineHarness(NO_REACH);
        Service svc = new Service(() -> h.now, 10);
        h.engine.registerService(SVC, 0, svc);
        FakePeer client = newClient();
        h.deliver(client.data(0, 1, 1, PacketFlags.LAST_PACKET, 20));
        assertEquals(1, svc.newCalls());
        Call first = svc.calls.get(0);
        List<DataPacket> reply = h.dataSent();
        assertEquals(1, reply.size());
        assertTrue(reply.get(0).header().hasFlag(PacketFlags.LAST_PACKET));
        assertEquals(CallState.HOLD, first.state(), "the reply is out, not yet acknowledged");

        h.advance(50 * MS);
        assertFalse(svc.record(0).completed);
        h.deliver(client.data(0, 2, 1, PacketFlags.LAST_PACKET, 20));
        assertTrue(svc.record(0).completed, "call 2 on the channel implicitly acknowledges call 1's reply");
        assertEquals(0, svc.record(0).code);
        assertEquals(CallState.DALLY, first.state());
        assertEquals(2, svc.newCalls());
        assertEquals(2, svc.calls.get(1).callNumber());
        assertEquals(0, svc.calls.get(1).channel());
    }

    @Test
    void lateOrReplayedDataNeverRerunsTheHandler() {
        EngineHarness h = new EngineHarness(NO_REACH);
        Service svc = new Service(() -> h.now, 10);
        h.engine.registerService(SVC, 0, svc);
        FakePeer client = newClient();
        h.deliver(client.data(0, 1, 1, PacketFlags.LAST_PACKET, 20));
        h.deliver(client.data(0, 2, 1, PacketFlags.LAST_PACKET, 20));
        assertEquals(2, svc.newCalls());

        // A late packet of call 1 (an older callNumber) is dropped.
        h.clear();
        h.deliver(client.data(0, 1, 1, PacketFlags.LAST_PACKET, 20));
        assertEquals(2, svc.newCalls());
        // A replay of the current call's packet is a duplicate.
        h.deliver(client.data(0, 2, 1, PacketFlags.LAST_PACKET, 20));
        assertEquals(2, svc.newCalls());
        assertTrue(h.acksSent().stream().anyMatch(a -> a.reason() == AckReason.DUPLICATE));

        // Call 2 ends (its reply hard-acked); replays after that still start nothing.
        h.deliver(client.ack(0, 2, 2, 1, 0, AckReason.DELAY, new byte[0], 32, 1));
        assertEquals(CallState.DALLY, svc.calls.get(1).state());
        assertTrue(svc.record(1).completed);
        h.deliver(client.data(0, 2, 1, PacketFlags.LAST_PACKET, 20));
        h.deliver(client.data(0, 1, 1, PacketFlags.LAST_PACKET, 20));
        assertEquals(2, svc.newCalls());

        // A call the client aborted: a replay gets the abort again, never a new handler.
        h.deliver(client.data(1, 1, 1, 0, 1412));
        assertEquals(3, svc.newCalls());
        h.deliver(client.abort(1, 1, AbortCodes.RX_USER_ABORT));
        assertEquals(AbortCodes.RX_USER_ABORT, svc.record(2).code);
        h.clear();
        h.deliver(client.data(1, 1, 1, 0, 1412));
        assertEquals(3, svc.newCalls());
        List<AbortPacket> aborts = h.abortsSent();
        assertEquals(1, aborts.size());
        assertEquals(AbortCodes.RX_USER_ABORT, aborts.get(0).code());

        // Much later, replays are still ignored.
        h.advance(30 * S);
        h.deliver(client.data(0, 1, 1, PacketFlags.LAST_PACKET, 20));
        h.deliver(client.data(0, 2, 1, PacketFlags.LAST_PACKET, 20));
        h.deliver(client.data(1, 1, 1, 0, 1412));
        assertEquals(3, svc.newCalls());
    }

    @Test
    void aServerCallStartsOnlyFromDataWithSeqOneToMaxRwind() {
        EngineHarness h = new EngineHarness(NO_REACH);
        Service svc = new Service(() -> h.now, -1);
        h.engine.registerService(SVC, 0, svc);
        FakePeer client = newClient();
        h.deliver(client.data(0, 1, 33, 0, 1412));
        assertEquals(0, svc.newCalls(), "seq 33 > default rwind 32: a call from before a restart");
        h.deliver(client.data(0, 1, 0, 0, 1412));
        assertEquals(0, svc.newCalls(), "seq 0 is never DATA");
        assertNull(h.engine.serverConnections().isEmpty() ? null : h.engine.serverConnections().iterator().next()
                .call(0));
        h.deliver(client.data(0, 1, 32, 0, 1412));
        assertEquals(0, svc.newCalls(), "seq 32 is inside the window: admitted, held until seq 1");
        assertEquals(1, h.engine.totals().get(RxCounter.HELD_SERVER_CALLS));
        h.deliver(client.data(0, 1, 1, 0, 1412));
        assertEquals(1, svc.newCalls(), "seq 1 starts the held call");
        assertEquals(0, h.engine.totals().get(RxCounter.HELD_SERVER_CALLS));

        EngineHarness wide = new EngineHarness(RxConfig.builder().checkReach(false).maxRwind(64).build());
        Service svc2 = new Service(() -> wide.now, -1);
        wide.engine.registerService(SVC, 0, svc2);
        FakePeer c2 = newClient();
        wide.deliver(c2.data(0, 1, 65, 0, 1412));
        assertEquals(0, svc2.newCalls());
        wide.deliver(c2.data(0, 1, 33, 0, 1412));
        assertEquals(1, wide.engine.totals().get(RxCounter.HELD_SERVER_CALLS), "with rwind 64, seq 33 admits a call");
        wide.deliver(c2.data(0, 1, 1, 0, 1412));
        assertEquals(1, svc2.newCalls());
    }

    @Test
    void serverPingsANewPeerAndStartsTheHandlerOnlyAfterThePingResponse() {
        EngineHarness h = new EngineHarness(RxConfig.defaults());
        Service svc = new Service(() -> h.now, 10);
        h.engine.registerService(SVC, 0, svc);
        FakePeer client = newClient();
        h.advance(5 * S); // the reachability check must not depend on where the clock starts
        h.deliver(client.data(0, 1, 1, PacketFlags.LAST_PACKET, 20));
        assertEquals(0, svc.newCalls(), "no handler before the peer proved reachable");
        assertEquals(1, h.sent.size(), "the server's first packet is the reachability PING");
        AckPacket ping = (AckPacket) h.sent.get(0).first();
        assertEquals(AckReason.PING, ping.reason());
        assertTrue(ping.header().hasFlag(PacketFlags.REQUEST_ACK));
        // Stateless reachability challenge: nothing is made for the unproven peer until it answers.
        assertEquals(0, h.engine.serverConnections().size(), "no connection before the peer proved reachable");
        assertEquals(0, h.engine.peers().size());
        assertEquals(1, h.engine.totals().get(RxCounter.CHALLENGED_SOURCES));

        h.clear();
        h.advance(2 * S);
        assertEquals(0, h.sent.size(), "nothing heard from the peer: no second reply to its one datagram");
        // The client resends its request (REQUEST_ACK on a retransmission): that earns the PING again.
        h.deliver(client.data(0, 1, 1, PacketFlags.LAST_PACKET | PacketFlags.REQUEST_ACK, 20));
        List<AckPacket> pings = h.acksSent().stream().filter(a -> a.reason() == AckReason.PING).toList();
        assertEquals(1, pings.size(), "the client is heard again: ping again");
        assertEquals(1, h.sent.size(), "and nothing else while the peer is unproven");
        assertEquals(0, svc.newCalls());

        h.clear();
        h.deliver(client.ack(0, 1, 1, 0, pings.get(0).header().serial(), AckReason.PING_RESPONSE, new byte[0], 32,
                1));
        assertEquals(1, svc.newCalls(), "the PING_RESPONSE starts the handler");
        assertEquals(20, svc.record(0).bytesRead);
        assertTrue(svc.record(0).readComplete);
        assertEquals(1, h.dataSent().size(), "the handler replied");

        // Within the reachability TTL a new call from that peer starts at once.
        h.clear();
        h.deliver(client.data(1, 1, 1, PacketFlags.LAST_PACKET, 20));
        assertEquals(2, svc.newCalls());
        assertTrue(h.acksSent().stream().noneMatch(a -> a.reason() == AckReason.PING));
    }

    @Test
    void aLostReachabilityPingIsRepeatedAsSoonAsTheWaitingClientPings() {
        EngineHarness h = new EngineHarness(RxConfig.defaults());
        Service svc = new Service(() -> h.now, -1);
        h.engine.registerService(SVC, 0, svc);
        FakePeer client = newClient();
        h.advance(S);
        h.deliver(client.data(0, 1, 1, 0, 1412));
        h.deliver(client.data(0, 1, 2, 0, 1412));
        assertEquals(1, h.acksSent().stream().filter(a -> a.reason() == AckReason.PING).count());
        h.clear(); // the reachability PING is lost
        h.advance(300 * MS);
        assertTrue(h.acksSent().stream().noneMatch(a -> a.reason() == AckReason.PING));

        // The client, its window held by soft acks, pings on its resend timer: the server pings back at once.
        AckPacket clientPing = client.ping(0, 1);
        h.deliver(clientPing);
        List<AckPacket> acks = h.acksSent();
        // While the peer is unproven its PING earns one reply, our reachability PING, not a PING_RESPONSE too.
        assertEquals(1, acks.size(), "one reply: " + acks);
        List<AckPacket> pings = acks.stream().filter(a -> a.reason() == AckReason.PING).toList();
        assertEquals(1, pings.size(), "a new reachability PING, long before the 2 s retry");
        assertEquals(0, svc.newCalls());
        h.deliver(client.ack(0, 1, 1, 0, pings.get(0).header().serial(), AckReason.PING_RESPONSE, new byte[0], 32,
                1));
        assertEquals(1, svc.newCalls());
        assertEquals(2 * 1412, svc.record(0).bytesRead);
    }

    @Test
    void clientAnswersEveryPingWithAPingResponseCarryingThePingSerial() {
        EngineHarness h = new EngineHarness(RxConfig.defaults());
        Connection conn = h.engine.connect(REMOTE, SVC, 0);
        Client c = new Client(() -> h.now, 100);
        c.start(h.engine, conn);
        FakePeer server = FakePeer.serverOf(conn);
        server.serial = 1000;
        for (int round = 0; round < 2; round++) {
            h.clear();
            AckPacket ping = server.ping(0, 1);
            h.deliver(ping);
            List<AckPacket> acks = h.acksSent();
            assertEquals(1, acks.size());
            AckPacket resp = acks.get(0);
            assertEquals(AckReason.PING_RESPONSE, resp.reason());
            assertEquals(ping.header().serial(), resp.serial());
            assertFalse(resp.header().hasFlag(PacketFlags.REQUEST_ACK));
            assertTrue(resp.header().hasFlag(PacketFlags.CLIENT_INITIATED));
            assertEquals(PacketType.ACK, resp.header().type());
            // Second round: the call has completed and dallies; pings are still answered.
            h.deliver(server.data(0, 1, 1, PacketFlags.LAST_PACKET, 10));
            assertTrue(c.completed);
        }
    }
    @Test
    void aDallyingCallAnswersAResentReplyPacketWithADuplicateAck() {
        EngineHarness h = new EngineHarness(RxConfig.defaults());
        Connection conn = h.engine.connect(REMOTE, SVC, 0);
        Client c = new Client(() -> h.now, 10);
        c.start(h.engine, conn);
        FakePeer server = FakePeer.serverOf(conn);
        h.deliver(server.data(0, 1, 1, PacketFlags.LAST_PACKET, 10));
        assertTrue(c.completed);
        assertEquals(CallState.DALLY, c.call.state());
        h.advance(S);

        // The server missed the final ack and resends its last reply packet (§12: DALLY calls answer DUPLICATE).
        h.clear();
        DataPacket resent = server.data(0, 1, 1, PacketFlags.LAST_PACKET | PacketFlags.REQUEST_ACK, 10);
        h.deliver(resent);
        List<AckPacket> acks = h.acksSent();
        assertEquals(1, acks.size(), "answered at once: " + h.sent);
        AckPacket a = acks.get(0);
        assertEquals(AckReason.DUPLICATE, a.reason());
        assertEquals(resent.header().serial(), a.serial());
        assertEquals(2, a.firstPacket(), "the whole reply is hard-acked");
        assertEquals(1, c.completions, "the call does not complete twice");
    }
}
