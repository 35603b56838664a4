// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine.admission;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.rx4j.config.Reachability;
import org.rx4j.config.RxConfig;
import org.rx4j.counters.RxCounter;
import org.rx4j.engine.LinkModel;
import org.rx4j.engine.SimApps;
import org.rx4j.engine.SimNetwork;
import org.rx4j.engine.connection.Connection;
import org.rx4j.engine.security.RxkadTestCredentials;
import org.rx4j.security.rxkad.RxkadLevel;
import org.rx4j.testing.LeakCheckExtension;
import org.rx4j.wire.AckPacket;
import org.rx4j.wire.AckReason;
import org.rx4j.wire.ControlPacket;
import org.rx4j.wire.PacketType;
import org.rx4j.wire.RxPacket;

/**
 * The stateless CHALLENGE of an rxkad service (docs/robustness.md "Rule: stateless reachability challenge"): with
 * checkReach on (the default), a new connection's first DATA gets the CHALLENGE at once, its nonce a keyed cookie of
 * the source and the connection, in place of the reachability PING; the accepted RESPONSE proves the source and
 * authenticates the connection in one round trip. Until then nothing but the challenge record exists for the source
 * (no connection, no peer). The RESPONSE is bound to the address that was challenged. rxkad between two rx4j engines
 * (the client does not PING first, as an OpenAFS client), virtual clock.
 */
@ExtendWith(LeakCheckExtension.class)
class StatelessChallengeSimTest {
    static final long MS = 1_000_000L;
    static final long S = 1_000 * MS;
    static final int SVC = 147;
    static final InetSocketAddress OTHER_PORT = new InetSocketAddress(SimNetwork.CLIENT.getAddress(),
            SimNetwork.CLIENT.getPort() + 1);

    private SimNetwork net;
    private SimApps.BulkServer server;
    /** What the server sent before its first reply DATA: PINGs, CHALLENGEs, bytes. */
    private int pings;
    private int challenges;
    private long serverBytes;
    private long clientBytes;
    private int clientDataSent;
    private boolean stateWhenChallenged;
    private boolean replied;

    @AfterEach
    void shutdown() {
        assertNull(net.server().engine.lastInternalError(), "server engine error");
        net.shutdown();
    }

    private void start() {
        net = new SimNetwork(RxConfig.defaults(), RxConfig.defaults(), LinkModel.delay(5 * MS),
                LinkModel.delay(5 * MS), 31);
        server = new SimApps.BulkServer(net);
        net.server().engine.registerService(SVC, RxkadTestCredentials.server(RxkadLevel.CLEAR), server);
        net.sendTap = (now, fromClient, packets) -> {
            RxPacket first = packets.get(0);
            if (!fromClient && first.header().type() == PacketType.DATA) {
                replied = true;
            }
            if (replied) {
                return;
            }
            for (RxPacket p : packets) {
                if (fromClient) {
                    clientBytes += 28 + p.bodyLength();
                    clientDataSent += p.header().type() == PacketType.DATA ? 1 : 0;
                } else {
                    serverBytes += 28 + p.bodyLength();
                }
            }
            if (!fromClient && first instanceof AckPacket a && a.reason() == AckReason.PING) {
                pings++;
            }
            if (!fromClient && first.header().type() == PacketType.CHALLENGE) {
                challenges++;
                stateWhenChallenged |= !net.server().engine.serverConnections().isEmpty()
                        || !net.server().engine.peers().isEmpty();
            }
        };
    }

    /**
     * A new client's first call: one CHALLENGE and no PING, nothing made for the source before its RESPONSE, the
     * request sent once, and the call done in two round trips (the CHALLENGE's, the call's), where the PING first
     * took three.
     */
    @Test
    void aNewRxkadClientIsServedAfterOneChallengeRoundTripWithNothingKeptBeforeIt() {
        start();
        Connection conn = net.client().engine.connect(SimNetwork.SERVER, SVC,
                RxkadTestCredentials.client(RxkadLevel.AUTH));
        SimApps.BulkClient c = new SimApps.BulkClient(net, 100, 100);
        long t0 = net.now();
        c.start(conn);
        assertTrue(net.runUntil(() -> c.done, 60 * S));
        assertEquals(0, c.error);
        assertEquals(0, pings, "no reachability PING: the CHALLENGE is the proof");
        assertEquals(1, challenges);
        assertTrue(!stateWhenChallenged, "no connection or peer for the source before its RESPONSE");
        assertEquals(1, clientDataSent, "the request went once");
        long took = c.completedAt - t0;
        assertTrue(took <= 25 * MS, "two round trips of 10 ms, took " + took / 1e6 + " ms");
        assertTrue(serverBytes <= Reachability.AMPLIFICATION_LIMIT * clientBytes, serverBytes + " bytes for "
                + clientBytes);
        assertEquals(1, net.server().engine.totals().get(RxCounter.SECURITY_CHALLENGES_SENT));
        assertEquals(0, net.server().engine.totals().get(RxCounter.SECURITY_RESPONSES_REFUSED));
    }

    /**
     * The client's own RESPONSE, lost on its way and sent instead from another port of its host, is refused there
     * (its nonce was the cookie of the client's address, not of that port) and makes nothing; the client's resent
     * DATA is challenged again and its next RESPONSE serves.
     */
    @Test
    void theClientsResponseFromAnotherPortIsRefusedAndTheRealOneServes() {
        start();
        List<ControlPacket> copies = new ArrayList<>();
        net.deliveryFilter = (now, toServer, packets) -> {
            if (toServer && packets.get(0) instanceof ControlPacket r
                    && r.header().type() == PacketType.RESPONSE && copies.isEmpty()) {
                copies.add(new ControlPacket(r.header(), r.body().clone()));
                net.injectFrom(OTHER_PORT, true, copies.get(0));
                return false; // the real one is lost: the client is challenged again on its resend
            }
            return true;
        };
        Connection conn = net.client().engine.connect(SimNetwork.SERVER, SVC,
                RxkadTestCredentials.client(RxkadLevel.CRYPT));
        SimApps.BulkClient c = new SimApps.BulkClient(net, 3000, 3000);
        c.start(conn);
        assertTrue(net.runUntil(() -> c.done, 60 * S));
        assertEquals(0, c.error);
        assertEquals(1, copies.size());
        assertEquals(1, net.server().engine.totals().get(RxCounter.SECURITY_RESPONSES_REFUSED), "the copy from the other port");
        assertEquals(1, net.server().engine.serverConnections().size());
        for (Connection s : net.server().engine.serverConnections()) {
            assertEquals(SimNetwork.CLIENT, s.peer().address());
        }
        assertEquals(1, net.server().engine.totals().get(RxCounter.SECURITY_FAILURES_FROM_OTHER_ADDRESSES));
    }
}
