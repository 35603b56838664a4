// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.rx4j.perf.rx.RxPerfTransportFactory;
import org.rx4j.perf.transport.PerfCallException;

/**
 * The three ways a server can be missing end with their own message and exit code (docs/rxperf.md "Exit codes"):
 * unknown host (3, CliRunTest), ICMP port unreachable (4), no answer within the dead time (5); a -1 the server sent stays 1.
 */
@Timeout(60)
class FailureOutcomeTest {
    private static final InetSocketAddress SERVER = new InetSocketAddress(InetAddress.getLoopbackAddress(), 7009);

    private static CliHarness.Outcome run(String... args) {
        return new CliHarness(new RxPerfTransportFactory(), System::nanoTime).run(args);
    }

    @Test
    void closedLoopbackPortIsPortUnreachableWithinTheProbe() throws SocketException {
        int port;
        try (DatagramSocket socket = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
            port = socket.getLocalPort();
        }
        long start = System.nanoTime();
        CliHarness.Outcome o = run("client", "-c", "rpc", "-T", "1", "-p", Integer.toString(port));
        long millis = (System.nanoTime() - start) / 1_000_000;
        assertEquals(RxperfFailure.EXIT_PORT_UNREACHABLE, o.exitCode(), o.err());
        assertEquals("rxperf: port unreachable (ICMP): nothing listens on UDP port " + port + " of 127.0.0.1 "
                + "(call aborted with code -1, RX_CALL_DEAD)\n", o.err());
        // the dead time is 12 s: an answer this early can only have come from the ICMP error
        assertTrue(millis < 6000, millis + " ms");
    }

    @Test
    void silentListenerIsNoAnswerAfterTheDeadTime() throws SocketException {
        // bound and never read: no ICMP error, no answer; the call ends by the dead time (12 s)
        try (DatagramSocket silent = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
            int port = silent.getLocalPort();
            CliHarness.Outcome o = run("client", "-c", "rpc", "-T", "1", "-p", Integer.toString(port));
            assertEquals(RxperfFailure.EXIT_NO_ANSWER, o.exitCode(), o.err());
            assertTrue(o.err().startsWith("rxperf: no answer from UDP port " + port + " of 127.0.0.1 within the dead "
                    + "time"), o.err());
        }
    }

    @Test
    void noAnswerWithinTheDeadTimeHasItsOwnMessageAndCode() {
        PerfCallException dead = new PerfCallException(-1, "dead", PerfCallException.Kind.NO_ANSWER);
        RxperfFailure failure = (RxperfFailure) FailureMessages.forServer(dead, SERVER);
        assertEquals(RxperfFailure.EXIT_NO_ANSWER, failure.exitCode());
        assertEquals("no answer from UDP port 7009 of 127.0.0.1 within the dead time (call aborted with code -1, "
                + "RX_CALL_DEAD): no host or no server there, or the packets are dropped", failure.getMessage());
    }

    @Test
    void hostUnreachableAndNoRouteHaveTheirOwnMessagesAndCodes() {
        RxperfFailure host = (RxperfFailure) FailureMessages.forServer(
                new PerfCallException(-1, "host", PerfCallException.Kind.HOST_UNREACHABLE), SERVER);
        assertEquals(RxperfFailure.EXIT_HOST_UNREACHABLE, host.exitCode());
        assertEquals(6, host.exitCode());
        assertEquals("host unreachable (ICMP): 127.0.0.1 does not answer (on the local network: no answer to ARP or "
                + "neighbour discovery; call aborted with code -1, RX_CALL_DEAD)", host.getMessage());
        RxperfFailure route = (RxperfFailure) FailureMessages.forServer(
                new PerfCallException(-1, "route", PerfCallException.Kind.NO_ROUTE), SERVER);
        assertEquals(RxperfFailure.EXIT_NO_ROUTE, route.exitCode());
        assertEquals(7, route.exitCode());
        assertEquals("no route to 127.0.0.1 (network unreachable; call aborted with code -1, RX_CALL_DEAD)",
                route.getMessage());
    }

    @Test
    void aMinusOneTheServerSentIsARejectionWithExitCodeOne() {
        PerfCallException rejected = new PerfCallException(-1, "x", PerfCallException.Kind.ABORTED_BY_PEER);
        assertSame(rejected, FailureMessages.forServer(rejected, SERVER));
        assertEquals("call aborted with code -1 (the rxperf server rejected the request)",
                FailureMessages.describe(rejected));
    }
}
