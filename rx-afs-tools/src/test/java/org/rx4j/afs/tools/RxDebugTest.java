// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.afs.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.rx4j.rpc.RxEndpoint;

/**
 * rx4j's rxdebug against an rx4j endpoint on loopback (its engine answers DEBUG and VERSION packets). The comparison
 * with Debian's rxdebug is scripts/interop.sh's (section rx4j); here: the lines and their order.
 */
@Timeout(60)
class RxDebugTest {
    private static RxEndpoint server;

    @BeforeAll
    static void start() throws Exception {
        server = RxEndpoint.builder().bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0)).open();
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static List<String> rxdebug(int expectedStatus, String... options) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        String[] args = new String[options.length + 2];
        args[0] = "127.0.0.1";
        args[1] = Integer.toString(server.localAddress().getPort());
        System.arraycopy(options, 0, args, 2, options.length);
        assertEquals(expectedStatus, RxDebug.run(args, new PrintWriter(out, true), new PrintWriter(err, true)),
                err.toString());
        return out.toString().lines().toList();
    }

    @Test
    void versionNamesRx4j() {
        List<String> lines = rxdebug(0, "-version");
        assertEquals(2, lines.size(), lines.toString());
        assertEquals("Trying 127.0.0.1 (port " + server.localAddress().getPort() + "):", lines.get(0));
        assertTrue(lines.get(1).startsWith("AFS version: rx4j"), lines.get(1));
    }

    @Test
    void statsRxstatsAndEmptyListings() {
        List<String> lines = rxdebug(0, "-rxstats", "-allconnections", "-peers");
        assertTrue(lines.get(1).matches("Free packets: \\d+/\\d+, packet reclaims: \\d+, calls: \\d+, used FDs: \\d+"),
                lines.get(1));
        assertEquals("not waiting for packets.", lines.get(2));
        assertTrue(lines.get(6).startsWith("rx stats: free packets "), lines.get(6));
        assertTrue(lines.stream().anyMatch(l -> l.matches("   packets read: data \\d+ ack \\d+ .* version \\d+ ")),
                lines.toString());
        // no connections and no peers yet (DEBUG packets make neither): two empty listings
        assertEquals(List.of("Done.", "Done."), lines.subList(lines.size() - 2, lines.size()));
    }

    @Test
    void openAfsServersAndPortOptionsWork() {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int port = server.localAddress().getPort();
        assertEquals(0, RxDebug.run(new String[] {"-servers", "127.0.0.1", "-port", Integer.toString(port),
            "-version"}, new PrintWriter(out, true), new PrintWriter(err, true)), err.toString());
        assertEquals("Trying 127.0.0.1 (port " + port + "):", out.toString().lines().findFirst().orElseThrow());
    }

    @Test
    void aHostGivenTwiceIsBadUsage() {
        StringWriter err = new StringWriter();
        assertEquals(2, RxDebug.run(new String[] {"127.0.0.1", "7000", "-servers", "127.0.0.1"},
                new PrintWriter(new StringWriter()), new PrintWriter(err, true)));
        assertTrue(err.toString().startsWith("rxdebug: HOST given twice"), err.toString());
    }

    @Test
    void badUsageIsOneLineAndStatus2() {
        StringWriter err = new StringWriter();
        assertEquals(2, RxDebug.run(new String[] {"-port", "7000"}, new PrintWriter(new StringWriter()),
                new PrintWriter(err, true)));
        assertEquals(1, err.toString().lines().count(), err.toString());
        assertTrue(err.toString().startsWith("rxdebug: missing HOST"), err.toString());
    }

    @Test
    void withoutAPortTheFileserversIsAskedAsOpenAfsRxdebugDoes() {
        assertEquals(7000, portOf("-servers", "127.0.0.1"));
        assertEquals(7000, portOf("127.0.0.1"));
        assertEquals(7009, portOf("-servers", "127.0.0.1", "-port", "7009"));
        assertEquals(7010, portOf("127.0.0.1", "7010"));
    }

    private static int portOf(String... args) {
        RxDebug cmd = new RxDebug();
        new picocli.CommandLine(cmd).parseArgs(args);
        return cmd.targetPort();
    }
}
