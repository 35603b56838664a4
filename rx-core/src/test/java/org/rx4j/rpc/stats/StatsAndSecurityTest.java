// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc.stats;

import io.netty.buffer.ByteBuf;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.Optional;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.rx4j.counters.RxCounter;
import org.rx4j.rpc.RxConnection;
import org.rx4j.rpc.RxEndpoint;
import org.rx4j.rpc.RxService;
import org.rx4j.rpc.errors.RxException;
import org.rx4j.security.RxNullSecurityClass;
import org.rx4j.security.SecurityClass;
import org.rx4j.security.packet.PacketHeader;
import org.rx4j.security.packet.PacketSecurity;
import org.rx4j.security.packet.SecurityContext;
import org.rx4j.testing.LeakCheckExtension;
import org.rx4j.wire.AbortCodes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The stats API (endpoint, connection and peer snapshots, the JMX view) after real calls, and the choice of
 * security class per service and per connection (only rxnull runs in the engine yet).
 */
@Timeout(60)
@ExtendWith(LeakCheckExtension.class)
class StatsAndSecurityTest {
    static final int SERVICE = 700;

    RxEndpoint server;
    RxEndpoint client;

    @BeforeEach
    void start() throws Exception {
        server = RxEndpoint.builder().bind(new InetSocketAddress("127.0.0.1", 0)).jmx(true).open();
        server.registerService(RxService.builder(SERVICE)
                .blocking(1, (call, op) -> call.output().write(new byte[50_000]))
                .blocking(2, (call, op) -> {
                    throw RxException.local(17, "no");
                })
                .build());
        client = RxEndpoint.builder().bind(new InetSocketAddress("127.0.0.1", 0)).open();
    }

    @AfterEach
    void stop() {
        client.close();
        server.close();
    }

    @Test
    void snapshotsCountCallsPacketsBytesAndRtt() throws Exception {
        RxConnection conn = client.connect(server.localAddress(), SERVICE);
        for (int i = 0; i < 3; i++) {
            assertEquals(50_000, conn.call(new byte[] {0, 0, 0, 1}).length);
        }
        RxException e = assertThrows(RxException.class, () -> conn.call(new byte[] {0, 0, 0, 2}));
        assertEquals(17, e.code());

        ConnectionStats cs = conn.stats();
        assertEquals(conn.id(), cs.id());
        assertTrue(cs.client());
        assertEquals(server.localAddress(), cs.peer());
        assertEquals(4, cs.counters().get(RxCounter.CALLS_STARTED));
        assertEquals(3, cs.counters().get(RxCounter.CALLS_SUCCEEDED));
        assertEquals(1, cs.counters().get(RxCounter.CALLS_FAILED));
        assertTrue(cs.counters().get(RxCounter.BYTES_RECEIVED) > 150_000, "three 50 kB replies");
        // Loopback carries 65,507-byte packets once the path is proven; the first reply may come in 1412-byte ones.
        long dataPackets = cs.counters().get(RxCounter.DATA_PACKETS_RECEIVED);
        assertTrue(dataPackets >= 3 && dataPackets <= 3 * 36, "50 kB is 1 to 36 packets: " + dataPackets);
        assertTrue(cs.counters().byLabel(RxCounter.PACKETS_RECEIVED).get("DATA") >= dataPackets / 4,
                "DATA datagrams: at most 4 packets per jumbogram");
        assertTrue(cs.counters().byLabel(RxCounter.PACKETS_RECEIVED).containsKey("ABORT"));

        EndpointStats es = client.statistics();
        assertEquals(client.localAddress(), es.localAddress());
        assertTrue(es.connections().contains(cs) || es.connections().stream().anyMatch(c -> c.id().equals(conn.id())));
        assertTrue(es.totals().get(RxCounter.BYTES_SENT) >= cs.counters().get(RxCounter.BYTES_SENT));
        assertTrue(es.totals().get(RxCounter.DATAGRAMS_RECEIVED) > 0 && es.totals().get(RxCounter.DATAGRAMS_SENT) > 0);
        assertEquals(0, es.totals().get(RxCounter.MALFORMED_DATAGRAMS));
        PeerStats peer = client.peerStats(server.localAddress()).orElseThrow();
        assertEquals(1, peer.connections());
        // The server sent the multi-packet replies, so its side took RTT samples from the client's ACKs.
        PeerStats caller = server.peerStats(client.localAddress()).orElseThrow();
        assertTrue(caller.rtt().samples() > 0, "RTT was sampled");
        assertTrue(caller.rtt().minRttNs() > 0 && caller.rtt().minRttNs() <= caller.rtt().maxRttNs());
        assertTrue(caller.bytesSent() > 150_000);
        assertEquals(32, caller.rwind(), "the client's ACK trailers advertise OpenAFS's default rwind");
        assertTrue(caller.maxMtu() >= 1444);
        assertEquals(Optional.empty(), client.peerStats(new InetSocketAddress("127.0.0.1", 9)));

        EndpointStats ss = server.statistics();
        assertEquals(4, ss.totals().get(RxCounter.CALLS_EXECUTED));
        ConnectionStats serverSide = ss.connections().get(0);
        assertEquals(conn.id(), serverSide.id(), "the server sees the client's connection identity");
        assertFalse(serverSide.client());
        assertEquals(client.localAddress(), serverSide.peer());

        Map<String, Long> flat = server.stats();
        assertEquals(ss.totals().get(RxCounter.CALLS_STARTED), flat.get("callsStarted"));
        assertEquals(caller.rtt().samples(), flat.get("rttSamples"));
    }

    @Test
    void jmxExportsTheEndpointTotals() throws Exception {
        RxConnection conn = client.connect(server.localAddress(), SERVICE);
        conn.call(new byte[] {0, 0, 0, 1});
        ObjectName name = server.mbeanName().orElseThrow();
        assertEquals(new ObjectName("org.rx4j:type=RxEndpoint,address=\"/127.0.0.1:" + server.localAddress().getPort()
                + "\""), name, "the name docs/embedding.md shows");
        MBeanServer mbs = ManagementFactory.getPlatformMBeanServer();
        assertEquals(1L, mbs.getAttribute(name, "callsStarted"));
        assertEquals(server.statistics().totals().get(RxCounter.BYTES_SENT), mbs.getAttribute(name, "bytesSent"));
        assertEquals(1, mbs.getAttribute(name, "Connections"));
        assertEquals(String.valueOf(server.localAddress()), mbs.getAttribute(name, "LocalAddress"));
        assertTrue(client.mbeanName().isEmpty(), "off unless asked for");
        server.close();
        assertFalse(mbs.isRegistered(name), "closing unregisters the MBean");
    }

    /** A security class written outside rx4j has no packet work: connecting or registering with it is refused. */
    @Test
    void aSecurityClassFromOutsideTheLibraryIsRefused() {
        SecurityClass foreign = new SecurityClass() {
            @Override
            public int securityIndex() {
                return 2;
            }

            @Override
            public String name() {
                return "foreign";
            }
        };
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> client.connect(server.localAddress(), SERVICE, foreign));
        assertTrue(e.getMessage().contains("not one of rx4j's security classes"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> server.registerService(RxService.builder(SERVICE + 1)
                .securityClass(foreign).blocking(1, (call, op) -> call.output().write(new byte[1])).build()));
        assertEquals(0, client.statistics().totals().get(RxCounter.BYTES_SENT), "nothing was sent");
    }

    /** Stands for rxkad (index 2): the API accepts it, the engine does not run it yet. */
    static final class IndexTwo implements PacketSecurity {
        @Override
        public int securityIndex() {
            return 2;
        }

        @Override
        public String name() {
            return "index-two";
        }

        @Override
        public int headerSize(SecurityContext ctx) {
            return 8;
        }

        @Override
        public int trailerSize(SecurityContext ctx) {
            return 0;
        }

        @Override
        public int prepareOutgoing(SecurityContext ctx, int channel, int callNumber, int seq, ByteBuf packet) {
            return 0;
        }

        @Override
        public int checkIncoming(SecurityContext ctx, PacketHeader header, ByteBuf packet) {
            return 0;
        }

        @Override
        public boolean isAuthenticated(SecurityContext ctx) {
            return true;
        }

        @Override
        public Optional<byte[]> challengeBody(SecurityContext ctx) {
            return Optional.empty();
        }

        @Override
        public byte[] responseBody(SecurityContext ctx, byte[] challengeBody) {
            return new byte[0];
        }

        @Override
        public int checkResponse(SecurityContext ctx, byte[] responseBody) {
            return 0;
        }
    }

    @Test
    void securityClassIsChosenPerServiceAndPerConnection() throws Exception {
        RxConnection conn = client.connect(server.localAddress(), SERVICE, RxNullSecurityClass.INSTANCE);
        assertSame(RxNullSecurityClass.INSTANCE, conn.securityClass());
        assertEquals(0, conn.id().securityIndex());
        assertEquals(50_000, conn.call(new byte[] {0, 0, 0, 1}).length);

        // Any class is accepted as an object; a service without it answers its connections' calls with -2.
        RxConnection two = client.connect(server.localAddress(), SERVICE, new IndexTwo());
        assertEquals(2, two.id().securityIndex());
        RxException refused = assertThrows(RxException.class, () -> two.call(new byte[] {0, 0, 0, 1}));
        assertEquals(AbortCodes.RX_INVALID_OPERATION, refused.code());
        assertThrows(IllegalArgumentException.class, () -> client.connect(server.localAddress(), 0));

        // An unregistered (service id, security index) pair gets a raw ABORT -2 (rx-wire-facts.md §2, §7).
        RxConnection unknown = client.connect(server.localAddress(), SERVICE + 5);
        RxException e = assertThrows(RxException.class, () -> unknown.call(new byte[8]));
        assertEquals(AbortCodes.RX_INVALID_OPERATION, e.code());
    }
}
