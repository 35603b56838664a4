// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.counters;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import javax.management.Attribute;
import javax.management.MBeanAttributeInfo;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.rx4j.rpc.RxConnection;
import org.rx4j.rpc.RxEndpoint;
import org.rx4j.rpc.RxService;
import org.rx4j.rpc.stats.CounterStats;
import org.rx4j.rpc.stats.EndpointStats;
import org.rx4j.testing.LeakCheckExtension;

/**
 * A counter is declared once, in {@link RxCounter}: the stats snapshot, its flattening, the JMX attributes and the
 * table in docs/embedding.md ("Counters") are all derived from the enum, and agree with it.
 */
@Timeout(60)
@ExtendWith(LeakCheckExtension.class)
class CounterDeclarationTest {
    private static final int SERVICE = 4711;
    private static final String TABLE_START = "<!-- counters table: generated from RxCounter by CounterDeclarationTest -->";
    private static final String TABLE_END = "<!-- end of counters table -->";

    @Test
    void keysAreUniqueAndNamedAfterTheirConstants() {
        Set<String> keys = new HashSet<>();
        boolean endpointSeen = false;
        for (RxCounter c : RxCounter.values()) {
            assertTrue(keys.add(c.key()), "duplicate key " + c.key());
            boolean grouped = c.key().startsWith("security.");
            String bare = grouped ? c.key().substring("security.".length()) : c.key();
            assertTrue(bare.matches("[a-z][A-Za-z]*"), c.key());
            assertEquals((grouped ? "SECURITY_" : "") + snake(bare), c.name(), c.key());
            assertEquals(c.labels().size(), new HashSet<>(c.labels()).size(), c + " labels unique");
            assertTrue(!c.description().isBlank(), c + " described");
            endpointSeen |= c.scope() == RxCounter.Scope.ENDPOINT;
            assertTrue(!endpointSeen || c.scope() == RxCounter.Scope.ENDPOINT, c + ": connection counters come first");
        }
    }

    /** The endpoint's snapshot holds every counter, a connection's those of its scope; the flattening names them all. */
    @Test
    void everySnapshotIsALoopOverTheEnum() throws Exception {
        try (Pair p = new Pair(false)) {
            EndpointStats s = p.server.statistics();
            assertEquals(EnumSet.allOf(RxCounter.class), s.totals().counts().keySet());
            Set<RxCounter> connectionScope = EnumSet.noneOf(RxCounter.class);
            for (RxCounter c : RxCounter.values()) {
                if (c.scope() == RxCounter.Scope.CONNECTION) {
                    connectionScope.add(c);
                }
            }
            assertEquals(connectionScope, s.connections().get(0).counters().counts().keySet());
            Map<String, Long> flat = p.server.stats();
            for (RxCounter c : RxCounter.values()) {
                assertTrue(flat.containsKey(c.key()), c.key() + " in " + flat.keySet());
            }
            assertEquals(1L, flat.get("callsExecuted"));
            assertTrue(flat.get("packetsReceived.DATA") >= 1, "a labelled counter's labels: " + flat);
        }
    }

    /** One JMX attribute per counter and label, named by its key, with its unit and kind; values are the snapshot's. */
    @Test
    void everyCounterIsAJmxAttributeWithItsUnitAndKind() throws Exception {
        try (Pair p = new Pair(true)) {
            ObjectName name = p.server.mbeanName().orElseThrow();
            MBeanServer mbs = ManagementFactory.getPlatformMBeanServer();
            Map<String, MBeanAttributeInfo> attrs = new HashMap<>();
            for (MBeanAttributeInfo a : mbs.getMBeanInfo(name).getAttributes()) {
                attrs.put(a.getName(), a);
            }
            Set<String> expected = new LinkedHashSet<>(List.of("LocalAddress", "Connections", "Peers",
                    "ProcedureMetrics"));
            for (RxCounter c : RxCounter.values()) {
                expected.add(c.key());
                MBeanAttributeInfo a = attrs.get(c.key());
                assertTrue(a != null, c.key() + " is an attribute");
                assertEquals("long", a.getType(), c.key());
                assertEquals(c.unit().label(), a.getDescriptor().getFieldValue("units"), c.key());
                assertEquals(c.kind() == RxCounter.Kind.COUNTER ? "counter" : "gauge",
                        a.getDescriptor().getFieldValue("metricType"), c.key());
                assertEquals(c.description(), a.getDescription());
                for (String label : c.labels()) {
                    expected.add(c.key() + "." + label);
                }
            }
            assertEquals(expected, attrs.keySet(), "the MXBean's attributes and one per counter and label");
            // Counters settled once the handler ran (the server call's end waits for the client's delayed ACK).
            String[] settled = {"callsStarted", "callsExecuted", "packetsReceived.DATA"};
            CounterStats totals = p.server.statistics().totals();
            List<Object> viaJmx = new ArrayList<>();
            for (Object a : mbs.getAttributes(name, settled)) {
                viaJmx.add(((Attribute) a).getValue());
            }
            assertEquals(List.of(totals.get(RxCounter.CALLS_STARTED), totals.get(RxCounter.CALLS_EXECUTED),
                    totals.byLabel(RxCounter.PACKETS_RECEIVED).get("DATA")), viaJmx);
            assertEquals(1L, mbs.getAttribute(name, "callsExecuted"));
        }
    }

    /**
     * docs/embedding.md's table of counters is the enum's. After adding a counter: {@code mvn -pl rx-core test
     * -Dtest=CounterDeclarationTest -Drx4j.docs.update=true} rewrites the table.
     */
    @Test
    void theDocsTableIsTheEnum() throws Exception {
        Path doc = docs().resolve("embedding.md");
        String text = Files.readString(doc);
        int start = text.indexOf(TABLE_START);
        int end = text.indexOf(TABLE_END);
        assertTrue(start >= 0 && end > start, "docs/embedding.md has the counters table markers");
        String table = table();
        String now = text.substring(start + TABLE_START.length(), end);
        if (Boolean.getBoolean("rx4j.docs.update")) {
            Files.writeString(doc, text.substring(0, start + TABLE_START.length()) + table + text.substring(end));
            return;
        }
        assertEquals(table, now, "docs/embedding.md's counters table is not RxCounter's: run with"
                + " -Drx4j.docs.update=true");
    }

    private static String table() {
        StringBuilder sb = new StringBuilder("\n| Name | Unit | Kind | Scope | Meaning |\n|---|---|---|---|---|\n");
        for (RxCounter c : RxCounter.values()) {
            String labels = c.labels().isEmpty() ? "" : "; `.LABEL` for each of " + String.join(", ", c.labels());
            sb.append("| `").append(c.key()).append("` | ").append(c.unit().label()).append(" | ")
                    .append(c.kind().name().toLowerCase(Locale.ROOT)).append(" | ")
                    .append(c.scope().name().toLowerCase(Locale.ROOT)).append(" | ").append(c.description())
                    .append(labels).append(" |\n");
        }
        return sb.toString();
    }

    private static Path docs() {
        Path p = Path.of("").toAbsolutePath();
        while (p != null && !Files.isRegularFile(p.resolve("docs/embedding.md"))) {
            p = p.getParent();
        }
        assertTrue(p != null, "docs/embedding.md not found");
        return p.resolve("docs");
    }

    private static String snake(String camel) {
        return camel.replaceAll("([A-Z])", "_$1").toUpperCase(Locale.ROOT);
    }

    /** A server and a client on loopback after one finished call. */
    private static final class Pair implements AutoCloseable {
        final RxEndpoint server;
        final RxEndpoint client;

        Pair(boolean jmx) throws Exception {
            server = RxEndpoint.builder().jmx(jmx).bind(new InetSocketAddress("127.0.0.1", 0)).open();
            server.registerService(RxService.builder(SERVICE)
                    .blocking(1, (call, op) -> call.output().write(new byte[] {5, 6})).build());
            client = RxEndpoint.builder().bind(new InetSocketAddress("127.0.0.1", 0)).open();
            RxConnection conn = client.connect(server.localAddress(), SERVICE);
            assertArrayEquals(new byte[] {5, 6}, conn.call(new byte[] {0, 0, 0, 1}));
        }

        @Override
        public void close() {
            client.close();
            server.close();
        }
    }
}
