// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.rx4j.engine.EngineHarness.REMOTE;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.rx4j.config.RxConfig;
import org.rx4j.engine.RecordingApps.Client;
import org.rx4j.engine.RecordingApps.Service;
import org.rx4j.engine.connection.Connection;
import org.rx4j.testing.LeakCheckExtension;
import org.rx4j.wire.AckReason;
import org.rx4j.wire.PacketFlags;
import org.rx4j.wire.RxPacket;

/**
 * The engine's hint to the transport after a datagram (docs/transport.md "Reads per wake-up"): its sender likely has
 * another datagram in the socket when it sends every datagram on its own (an OpenAFS peer: its ACK trailer advertises
 * jumbograms of base packets) and the datagram's connection has more than one call in progress, or the datagram came
 * from the middle of a reply longer than one receive window.
 */
@ExtendWith(LeakCheckExtension.class)
class LastSenderLikelyHasMoreTest {
    private static final int SVC = 147;

    private final EngineHarness h = new EngineHarness(RxConfig.builder().checkReach(false).build());

    @AfterEach
    void shutdown() {
        h.engine.shutdown(h.now); // releases what the calls still hold
        h.sent.forEach(d -> d.packets().forEach(RxPacket::release)); // the harness's decoded copies
    }

    private Connection conn;

    /**
     * Starts {@code calls} short calls on one connection to {@link EngineHarness#REMOTE} and delivers its server's ACK
     * of channel 0's request, whose trailer advertises {@code maxDgram} packets per jumbogram with FakePeer's MTUs
     * (OpenAFS's: maxMTU = ifMTU + (maxDgram − 1) × 1,416).
     *
     * @return the server end, for more packets of the connection
     */
    private FakePeer callsAckedBy(int calls, int maxDgram) {
        conn = h.engine.connect(REMOTE, SVC, 0);
        for (int i = 0; i < calls; i++) {
            new Client(() -> h.now, 10).start(h.engine, conn);
        }
        FakePeer server = FakePeer.serverOf(conn);
        h.deliver(server.ack(0, 1, 2, 1, 1, AckReason.REQUESTED, new byte[0], 32, maxDgram));
        return server;
    }

    /** Delivers the reply of channel 0's call: one DATA packet, its last. */
    private void replyOnChannel0(FakePeer server) {
        h.deliver(server.data(0, 1, 1, PacketFlags.LAST_PACKET, 4));
    }

    @Test
    void anOpenAfsServerWithOtherCallsInProgressLikelyHasMore() {
        assertFalse(h.engine.lastSenderLikelyHasMore(), "no datagram yet");
        FakePeer server = callsAckedBy(4, 4);
        assertTrue(conn.peer.basePacketReceiver(), "OpenAFS's trailer with 4-packet jumbograms");
        replyOnChannel0(server);
        assertTrue(h.engine.lastSenderLikelyHasMore(), "three more calls on the connection await their replies");
        h.engine.shutdown(h.now);
        assertFalse(h.engine.lastSenderLikelyHasMore(), "an engine shut down expects nothing");
    }

    @Test
    void oneCallInProgressLeavesNothingToWaitFor() {
        FakePeer server = callsAckedBy(1, 4);
        assertFalse(h.engine.lastSenderLikelyHasMore(), "one call: its reply is all that can come");
        replyOnChannel0(server);
        assertFalse(h.engine.lastSenderLikelyHasMore(), "its reply came: nothing is in progress");
    }

    @Test
    void anRx4jPeerGathersItsDatagramsIntoOneRead() {
        replyOnChannel0(callsAckedBy(4, 1));
        assertFalse(conn.peer.basePacketReceiver(), "maxMTU = ifMTU: not a receiver of base-packet jumbograms");
        assertFalse(h.engine.lastSenderLikelyHasMore(), "an rx4j peer's answers sent together arrive in one GSO send");
    }

    @Test
    void aDatagramOfNoConnectionSaysNothing() {
        callsAckedBy(4, 4);
        assertTrue(h.engine.lastSenderLikelyHasMore());
        FakePeer stranger = FakePeer.server(conn.epoch(), conn.cid() + 4, SVC); // a connection this engine never made
        h.deliver(stranger.data(0, 1, 1, PacketFlags.LAST_PACKET, 4));
        assertFalse(h.engine.lastSenderLikelyHasMore(), "dropped: no connection, no hint");
    }

    @Test
    void anOpenAfsServerPastItsReplysFirstWindowKeepsAWindowInFlight() {
        FakePeer server = callsAckedBy(1, 4);
        int rwind = RxConfig.defaults().windows().maxRwind();
        h.deliver(server.data(0, 1, rwind, 0, 1412));
        assertFalse(h.engine.lastSenderLikelyHasMore(), "within the first window: the sender may wait for acks");
        h.deliver(server.data(0, 1, rwind + 1, 0, 1412));
        assertTrue(h.engine.lastSenderLikelyHasMore(), "beyond it: the next datagrams are in flight");
        h.deliver(server.data(0, 1, rwind + 2, PacketFlags.LAST_PACKET, 100));
        assertFalse(h.engine.lastSenderLikelyHasMore(), "the reply's last packet");
    }

    @Test
    void anRx4jSenderPastItsFirstWindowSaysNothing() {
        FakePeer server = callsAckedBy(1, 1);
        int rwind = RxConfig.defaults().windows().maxRwind();
        h.deliver(server.data(0, 1, rwind + 1, 0, 1412));
        assertFalse(h.engine.lastSenderLikelyHasMore(), "an rx4j peer's window-full arrives in one GSO read");
    }

    @Test
    void anOpenAfsClientsLongRequestSaysNothing() {
        Service svc = new Service(() -> h.now, -1);
        h.engine.registerService(SVC, 0, svc);
        FakePeer client = FakePeer.client(0x81234560, 0x40, SVC);
        h.deliver(client.data(0, 1, 1, 0, 1412));
        h.deliver(client.ack(0, 1, 1, 0, 0, AckReason.DELAY, new byte[0], 32, 4));
        assertTrue(h.engine.serverConnections().iterator().next().peer().basePacketReceiver(), "OpenAFS's trailer");
        assertEquals(1, svc.newCalls());
        h.deliver(client.data(0, 1, 2, 0, 1412));
        assertFalse(h.engine.lastSenderLikelyHasMore(), "a request's first window: the client may wait for acks");
        int rwind = RxConfig.defaults().windows().maxRwind();
        h.deliver(client.data(0, 1, rwind + 1, 0, 1412));
        assertFalse(h.engine.lastSenderLikelyHasMore(),
                "past it too: a request's sender restarts its slow start each call, and reading on there cost more");
    }
}
