// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.rx4j.config.RxConfig;
import org.rx4j.counters.RxCounter;
import org.rx4j.engine.LinkModel;
import org.rx4j.engine.SimApps;
import org.rx4j.engine.SimNetwork;
import org.rx4j.engine.connection.Connection;
import org.rx4j.security.rxkad.RxkadLevel;
import org.rx4j.testing.LeakCheckExtension;
import org.rx4j.wire.ControlPacket;
import org.rx4j.wire.DataPacket;
import org.rx4j.wire.PacketFlags;
import org.rx4j.wire.PacketType;
import org.rx4j.wire.RxHeader;
import org.rx4j.wire.RxPacket;

/**
 * A packet that fails a security check and comes from an address other than its connection's ends nothing
 * (docs/robustness.md "Rule: a security failure from another address ends nothing"): an on-path attacker who knows a
 * connection's ids sends, from another port of the client's host, a junk RESPONSE after the CHALLENGE, or a DATA
 * packet with a wrong checksum mid-call; the server drops and counts it, sends nothing for it, and the real client's
 * handshake and call complete. rxkad between two rx4j engines in the simulator, virtual clock.
 */
@ExtendWith(LeakCheckExtension.class)
class StrangerSecurityFailureTest {
    static final long MS = 1_000_000L;
    static final long S = 1_000 * MS;
    static final int SVC = 147;
    /** The client's host, another port: where the attacker's packets come from. */
    static final InetSocketAddress OTHER_PORT = new InetSocketAddress(SimNetwork.CLIENT.getAddress(),
            SimNetwork.CLIENT.getPort() + 1);

    private SimNetwork net;
    private SimApps.BulkServer server;
    private final List<InetSocketAddress> abortsTo = new ArrayList<>();

    @AfterEach
    void shutdown() {
        assertNull(net.server().engine.lastInternalError(), "server engine error");
        net.shutdown();
    }

    private void start() {
        net = new SimNetwork(RxConfig.defaults(), RxConfig.defaults(), LinkModel.delay(5 * MS),
                LinkModel.delay(5 * MS), 29);
        server = new SimApps.BulkServer(net);
        net.server().engine.registerService(SVC, RxkadTestCredentials.server(RxkadLevel.CLEAR), server);
        net.sendTap = (now, fromClient, packets) -> {
            if (!fromClient && packets.get(0).header().type() == PacketType.ABORT) {
                abortsTo.add(SimNetwork.CLIENT);
            }
        };
    }

    /** @return true once the server's connection accepted its client's RESPONSE */
    private boolean authenticated() {
        for (Connection c : net.server().engine.serverConnections()) {
            if (c.security.isAuthenticated()) {
                return true;
            }
        }
        return false;
    }

    @Test
    void aJunkResponseFromAnotherPortLeavesTheHandshakeToTheRealClient() {
        start();
        List<RxPacket> junk = new ArrayList<>();
        net.deliveryFilter = (now, toServer, packets) -> {
            if (!toServer && packets.get(0).header().type() == PacketType.CHALLENGE && junk.isEmpty()) {
                RxHeader c = packets.get(0).header();
                byte[] body = new byte[56 + 64]; // a RESPONSE's size with a 64-byte ticket of zeros
                io.netty.buffer.Unpooled.wrappedBuffer(body).setInt(0, 2).setInt(52, 64);
                junk.add(new ControlPacket(new RxHeader(c.epoch(), c.cid(), 0, 0, 999, PacketType.RESPONSE,
                        PacketFlags.CLIENT_INITIATED, 0, c.securityIndex(), 0, SVC), body));
            }
            return true;
        };
        Connection conn = net.client().engine.connect(SimNetwork.SERVER, SVC,
                RxkadTestCredentials.client(RxkadLevel.CRYPT));
        SimApps.BulkClient c = new SimApps.BulkClient(net, 3000, 3000);
        c.start(conn);
        assertTrue(net.runUntil(() -> !junk.isEmpty(), 10 * S), "the server challenged");
        net.injectFrom(OTHER_PORT, true, junk.remove(0)); // reaches the server before the real RESPONSE
        assertTrue(net.runUntil(() -> c.done, 60 * S));
        assertEquals(0, c.error, "the real client's handshake and call complete");
        assertEquals(1, net.server().engine.totals().get(RxCounter.SECURITY_FAILURES_FROM_OTHER_ADDRESSES));
        assertEquals(1, net.server().engine.totals().get(RxCounter.SECURITY_RESPONSES_REFUSED));
        assertTrue(abortsTo.isEmpty(), "nothing answered the junk");
    }

    @Test
    void aDataPacketWithAWrongChecksumFromAnotherPortEndsNothing() {
        start();
        List<RxPacket> forged = new ArrayList<>();
        net.deliveryFilter = (now, toServer, packets) -> {
            if (toServer && packets.get(0) instanceof DataPacket d && d.header().seq() >= 3 && forged.isEmpty()
                    && authenticated()) {
                // A packet of the request after the handshake again, with a checksum off by one, as the next seq.
                RxHeader h = d.header();
                forged.add(new DataPacket(new RxHeader(h.epoch(), h.cid(), h.callNumber(), h.seq() + 1,
                        h.serial() + 100, PacketType.DATA, h.flags() & ~PacketFlags.LAST_PACKET, 0,
                        h.securityIndex(), (h.spare() + 1) & 0xffff, h.serviceId()), d.payload().copy()));
            }
            return true;
        };
        Connection conn = net.client().engine.connect(SimNetwork.SERVER, SVC,
                RxkadTestCredentials.client(RxkadLevel.CLEAR));
        SimApps.BulkClient c = new SimApps.BulkClient(net, 64 << 10, 64 << 10);
        c.start(conn);
        assertTrue(net.runUntil(() -> !forged.isEmpty(), 10 * S), "the request goes on after the handshake");
        net.injectFrom(OTHER_PORT, true, forged.remove(0));
        assertTrue(net.runUntil(() -> c.done, 60 * S));
        assertEquals(0, c.error, "the real client's call completes");
        assertEquals(64 << 10, c.reader.received);
        assertEquals(1, net.server().engine.totals().get(RxCounter.SECURITY_FAILURES_FROM_OTHER_ADDRESSES));
        assertEquals(1, net.server().engine.totals().get(RxCounter.SECURITY_PACKETS_REFUSED));
        assertTrue(abortsTo.isEmpty(), "no ABORT: the stranger's packet ends nothing");
    }
}
