// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine.call;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.rx4j.config.RxConfig;
import org.rx4j.counters.RxCounter;
import org.rx4j.engine.LinkModel;
import org.rx4j.engine.SimApps;
import org.rx4j.engine.SimNetwork;
import org.rx4j.engine.connection.Connection;
import org.rx4j.wire.PacketType;

/**
 * A client call whose one-packet request was lost once, then answered: the reply acknowledges the whole request
 * (§6.3) but, the request having been retransmitted, gives no RTT sample under Karn's rule. The RTO's doubling must
 * not outlive the exchange (RttEstimator#clearBackoff): it did, and under a flood (docs/robustness.md "Flood") the
 * next call's lost request then waited twice the RTO, and a second loss outlasted the dead time. Virtual clock.
 */
class BackoffAfterReplyTest {
    static final long MS = 1_000_000L;
    static final long S = 1_000 * MS;

    private SimNetwork net;

    @AfterEach
    void shutdown() {
        net.shutdown();
    }

    /** One 100-byte call on a 10 ms path whose request's first transmission is dropped; returns its connection. */
    private Connection firstCallWithItsRequestLostOnce() {
        net = new SimNetwork(RxConfig.defaults(), RxConfig.defaults(), LinkModel.delay(5 * MS),
                LinkModel.delay(5 * MS), 7);
        int[] requestDataSeen = new int[1];
        net.deliveryFilter = (now, toServer, packets) -> !(toServer
                && packets.get(0).header().type() == PacketType.DATA && requestDataSeen[0]++ == 0);
        SimApps.BulkServer server = new SimApps.BulkServer(net);
        net.server().engine.registerService(147, 0, server);
        Connection conn = net.client().engine.connect(SimNetwork.SERVER, 147, 0);
        SimApps.BulkClient first = new SimApps.BulkClient(net, 100, 100);
        first.start(conn);
        assertTrue(net.runUntil(() -> first.done, 60 * S));
        assertEquals(0, first.error);
        return conn;
    }

    @Test
    void aReplyToARetransmittedRequestClearsTheBackoff() {
        Connection conn = firstCallWithItsRequestLostOnce();
        assertTrue(conn.counters().get(RxCounter.RETRANSMIT_TIMEOUTS) >= 1, "the lost request timed out");
        assertEquals(0, conn.peer().rtt().backoffCount(), "the reply ended the doubling");
    }

    /**
     * The reply ends the client call before the server's ACK of the retransmitted request arrives; that ACK names
     * the retransmission's serial, so it still gives one sample (CallSender#sampleAfterEnd): the next lost request
     * waits about the path's RTO, not OpenAFS's initial 3.2 s.
     */
    @Test
    void theAckThatNamesTheRetransmissionStillTimesItAfterTheReply() {
        Connection conn = firstCallWithItsRequestLostOnce();
        net.runFor(100 * MS);
        assertEquals(1L, conn.peer().rtt().samples(), "one sample, from the ACK naming the retransmission");
        // Two path RTTs (10 ms each): the server first challenged the unproven client (docs/robustness.md "Rule:
        // stateless reachability challenge") and ACKed the request after the PING's answer. Timed from the first
        // transmission it would be over 3 s.
        assertTrue(conn.peer().rtt().srttNs() <= 21 * MS, "timed from the retransmission: " + conn.peer().rtt().srttNs());
        assertTrue(conn.peer().rtt().rtoNs() < S, "rto " + conn.peer().rtt().rtoNs());
    }
}
