// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.rx4j.config.TransportKind;
import org.rx4j.perf.fake.InMemoryServer;
import org.rx4j.perf.fake.InMemoryTransportFactory;
import org.rx4j.perf.transport.PerfEndpointOptions;

/** Whole runs through the command line on the in-memory transport: output lines, JSON, -D, flags to options. */
@Timeout(60)
class CliRunTest {
    /** A clock that reads 0 the first time and 1.407 s afterwards: every run then lasts exactly 1407 ms. */
    private static java.util.function.LongSupplier fixedRunClock() {
        AtomicBoolean first = new AtomicBoolean(true);
        return () -> first.getAndSet(false) ? 0L : 1_407_000_000L;
    }

    @Test
    void loopbackSendPrintsExactlyTheOpenAfsLine() {
        CliHarness cli = new CliHarness(new InMemoryTransportFactory(), fixedRunClock());
        CliHarness.Outcome outcome = cli.run("loopback", "-c", "send", "--verify");
        assertEquals(0, outcome.exitCode(), outcome.err());
        // 100 × 1 MiB in 1.407 s = 596.2 Mbit/s
        assertEquals("SEND: threads\t1, times\t100, bytes\t1048576:\t    1407 msec\t[596.2 Mbit/s]\n",
                outcome.out());
        assertEquals("", outcome.err());
    }

    @Test
    void loopbackRecvWithThreads() {
        CliHarness cli = new CliHarness(new InMemoryTransportFactory(), fixedRunClock());
        CliHarness.Outcome outcome = cli.run("loopback", "-c", "recv", "-b", "65536", "-T", "10", "-t", "6",
                "--verify", "-r", "1000", "-w", "3000");
        assertEquals(0, outcome.exitCode(), outcome.err());
        // 6 × 10 × 65536 = 3932160 bytes in 1.407 s = 22.36 Mbit/s
        assertEquals("RECV: threads\t6, times\t10, bytes\t65536:\t    1407 msec\t[22.36 Mbit/s]\n", outcome.out());
    }

    @Test
    void loopbackRpcPrintsTheResultOnStdoutAndLatencyOnStderr() {
        CliHarness cli = CliHarness.inMemory();
        CliHarness.Outcome outcome = cli.run("loopback", "-c", "rpc", "-T", "50", "-S", "4", "-R", "4", "--verify");
        assertEquals(0, outcome.exitCode(), outcome.err());
        List<String> lines = outcome.out().lines().toList();
        assertEquals(1, lines.size(), outcome.out());
        assertTrue(lines.get(0).matches("RPC: threads\t1, times\t50, write bytes\t4, read bytes\t4:\t +\\d+ msec\t"
                + "\\[[0-9.e+-]+ [kMG]bit/s\\]"), lines.get(0));
        List<String> errLines = outcome.err().lines().toList();
        assertEquals(1, errLines.size(), outcome.err());
        assertTrue(errLines.get(0).matches("RPC latency usec:\tp50 [0-9.]+, p90 [0-9.]+, p99 [0-9.]+, p99\\.9 [0-9.]+, "
                + "max [0-9.]+, after first [0-9.]+\t\\[\\d+ calls/s\\]"), errLines.get(0));
    }

    @Test
    void loopbackFileNamesTheFile(@TempDir Path dir) throws IOException {
        Path words = dir.resolve("words.txt");
        Files.writeString(words, "1000\n\n5000\n");
        CliHarness cli = new CliHarness(new InMemoryTransportFactory(), fixedRunClock());
        CliHarness.Outcome outcome = cli.run("loopback", "-c", "file", "-f", words.toString(), "-T", "3",
                "-b", "24000", "--verify");
        assertEquals(0, outcome.exitCode(), outcome.err());
        // OpenAFS's formula: 1 × 3 × 24000 bytes in 1.407 s = 409.4 kbit/s
        assertEquals("FILE " + words + ": threads\t1, times\t3, bytes\t24000:\t    1407 msec\t[409.4 kbit/s]\n",
                outcome.out());
    }

    @Test
    void timedRunReportsTheCountedCallsAndCpuInJsonAndDashD() throws IOException {
        // clock: +1 ms per reading (one thread); CPU: +2 ms per reading
        java.util.concurrent.atomic.AtomicLong now = new java.util.concurrent.atomic.AtomicLong();
        java.util.concurrent.atomic.AtomicLong cpu = new java.util.concurrent.atomic.AtomicLong();
        CliHarness cli = new CliHarness(new InMemoryTransportFactory(), () -> now.addAndGet(1_000_000L),
                () -> cpu.addAndGet(2_000_000L));
        CliHarness.Outcome outcome = cli.run("loopback", "-c", "send", "-b", "1000", "--time", "0.1", "--omit",
                "0.01", "--json");
        assertEquals(0, outcome.exitCode(), outcome.err());
        JsonNode root = new ObjectMapper().readTree(outcome.out());
        // as TimedRunTest: 33 calls, 3 omitted, 30 counted; elapsed 91 ms; CPU one step
        assertEquals(30, root.get("calls").asLong());
        assertEquals(3, root.get("omittedCalls").asLong());
        assertEquals(30, root.get("times").asInt());
        assertEquals(30_000, root.get("totalBytes").asLong());
        assertEquals(91_000, root.get("elapsedMicros").asLong());
        assertEquals(0.1, root.get("timeSeconds").asDouble());
        assertEquals(0.01, root.get("omitSeconds").asDouble());
        assertEquals("SEND: threads\t1, times\t30, bytes\t1000:\t      91 msec\t[2.637 Mbit/s]",
                root.get("result").asText());
        assertEquals(0.002, root.get("cpu").get("processSeconds").asDouble(), 1e-12);
        assertEquals(0.002 / (30_000 / 1073741824.0), root.get("cpu").get("secondsPerGiB").asDouble(), 1e-6);
        assertEquals(2000.0 / 30, root.get("cpu").get("microsPerCall").asDouble(), 1e-9);

        now.set(0);
        cpu.set(0);
        CliHarness.Outcome text = cli.run("loopback", "-c", "send", "-b", "1000", "--time", "0.1", "--omit", "0.01",
                "-D");
        assertEquals(0, text.exitCode(), text.err());
        List<String> lines = text.out().lines().toList();
        assertEquals("SEND: threads\t1, times\t30, bytes\t1000:\t      91 msec\t[2.637 Mbit/s]", lines.get(0));
        assertEquals("CPU (process user+sys):\t0.002 s, 71.583 s/GiB, 66.7 usec/call", lines.get(lines.size() - 1));
    }

    @Test
    void jsonReplacesTheTextWithOneObject() throws IOException {
        CliHarness cli = new CliHarness(new InMemoryTransportFactory(), fixedRunClock());
        CliHarness.Outcome outcome = cli.run("loopback", "-c", "rpc", "-T", "20", "-t", "5", "--json", "-D");
        assertEquals(0, outcome.exitCode(), outcome.err());
        assertEquals(1, outcome.out().lines().count(), outcome.out());
        JsonNode root = new ObjectMapper().readTree(outcome.out());
        assertEquals("rpc", root.get("command").asText());
        assertEquals("in-memory", root.get("transport").asText());
        assertEquals(5, root.get("threads").asInt());
        assertEquals(20, root.get("times").asInt());
        assertEquals(2, root.get("connections").asInt());
        assertEquals(100, root.get("calls").asLong());
        assertEquals(1_407_000, root.get("elapsedMicros").asLong());
        assertEquals(100L * 33, root.get("totalBytes").asLong());
        assertEquals(100L * 33, root.get("payloadBytes").asLong());
        assertEquals("RPC: threads\t5, times\t20, write bytes\t3, read bytes\t30:\t    1407 msec\t[18.76 kbit/s]",
                root.get("result").asText());
        assertEquals(100, root.get("latencyMicros").get("count").asLong());
        assertEquals(100, root.get("stats").get("client").get("calls.started").asLong());
        assertEquals(100, root.get("stats").get("server").get("calls.served").asLong());
    }

    @Test
    void dumpStatsPrintsBlocksAfterTheResult() {
        CliHarness.Outcome outcome = CliHarness.inMemory().run("loopback", "-c", "send", "-b", "1000", "-T", "4",
                "-D");
        assertEquals(0, outcome.exitCode(), outcome.err());
        List<String> lines = outcome.out().lines().toList();
        assertTrue(lines.get(0).startsWith("SEND: threads\t1, times\t4, bytes\t1000:"), lines.get(0));
        assertEquals("rx stats:", lines.get(1));
        assertTrue(lines.contains("Rx statistics (client):"), outcome.out());
        assertTrue(lines.get(lines.size() - 2).matches("First call:\t[0-9.]+ ms \\(from the start to its end, "
                + "inside the elapsed time\\)"), outcome.out());
        assertTrue(lines.contains("Rx statistics (server):"), outcome.out());
        assertTrue(lines.stream().anyMatch(l -> l.matches(" +served +4")), outcome.out());
    }

    @Test
    void flagsReachTheEndpointOptions() {
        InMemoryTransportFactory factory = new InMemoryTransportFactory();
        CliHarness.Outcome outcome = new CliHarness(factory, System::nanoTime).run("loopback", "-c", "send", "-b",
                "10", "-T", "1", "-W", "64", "--rwind", "200", "-j", "--jumbo-max", "6", "-m", "8000", "-u", "256",
                "-P", "5", "-N", "--hard-acks-only", "--transport", "EPOLL");
        assertEquals(0, outcome.exitCode(), outcome.err());
        PerfEndpointOptions expected = new PerfEndpointOptions(64, 200, false, 6, 8000, 256 * 1024, 5, true,
                TransportKind.EPOLL, 2, 20, false);
        InMemoryServer server = factory.servers().get(0);
        assertEquals(withSlice(expected, PerfEndpointOptions.SERVER_SCHEDULER_SLICE_US), server.options());
        assertEquals(expected, factory.clients().get(0).options());
        assertTrue(factory.clients().get(0).isClosed());
    }

    /** {@code --no-gro} turns GRO alone off, on either side; GSO stays (docs/transport.md "Segmentation offload"). */
    @Test
    void noGroTurnsReceiveOffloadAloneOff() {
        InMemoryTransportFactory factory = new InMemoryTransportFactory();
        CliHarness.Outcome outcome = new CliHarness(factory, System::nanoTime).run("loopback", "-c", "send", "-b",
                "10", "-T", "1", "--no-gro");
        assertEquals(0, outcome.exitCode(), outcome.err());
        PerfEndpointOptions client = factory.clients().get(0).options();
        assertFalse(client.receiveOffload(), "--no-gro");
        assertTrue(client.segmentationOffload(), "GSO stays");
        assertFalse(factory.servers().get(0).options().receiveOffload(), "loopback's server too");

        InMemoryTransportFactory plain = new InMemoryTransportFactory();
        assertEquals(0, new CliHarness(plain, System::nanoTime).run("loopback", "-c", "send", "-b", "10", "-T", "1")
                .exitCode());
        assertTrue(plain.clients().get(0).options().receiveOffload(), "GRO by default");
    }

    private static PerfEndpointOptions withSlice(PerfEndpointOptions o, int sliceUs) {
        return new PerfEndpointOptions(o.twind(), o.rwind(), o.jumbo(), o.jumboMax(), o.maxMtu(), o.udpBufferBytes(),
                o.minPeerTimeoutMs(), o.hardAcksOnly(), o.transport(), o.minProcs(), o.maxProcs(), o.statistics(),
                o.congestionControl(), o.debugReplies(), o.segmentationOffload(), o.fragmentJumbograms(),
                o.idleSpinUs(), sliceUs, o.receiveOffload());
    }

    /**
     * Without --slice-us a server's loop (also loopback's) asks for rxperf's 100 µs scheduler slice and a client's
     * keeps the kernel's (docs/transport.md "Scheduler slice"); the flag sets either side.
     */
    @Test
    void aServerAsksForAShortSchedulerSliceAndAClientDoesNot() {
        InMemoryTransportFactory factory = new InMemoryTransportFactory();
        assertEquals(0, new CliHarness(factory, System::nanoTime).run("loopback", "-c", "rpc", "-T", "1").exitCode());
        assertEquals(100, factory.servers().get(0).options().schedulerSliceUs());
        assertEquals(0, factory.clients().get(0).options().schedulerSliceUs());
        InMemoryTransportFactory served = new InMemoryTransportFactory();
        assertEquals(0, new CliHarness(served, System::nanoTime).run("server", "-p", "0").exitCode());
        assertEquals(100, served.servers().get(0).options().schedulerSliceUs());
        InMemoryTransportFactory off = new InMemoryTransportFactory();
        assertEquals(0, new CliHarness(off, System::nanoTime).run("server", "-p", "0", "--slice-us", "0").exitCode());
        assertEquals(0, off.servers().get(0).options().schedulerSliceUs());
        InMemoryTransportFactory both = new InMemoryTransportFactory();
        assertEquals(0, new CliHarness(both, System::nanoTime).run("loopback", "-c", "rpc", "-T", "1", "--slice-us",
                "250").exitCode());
        assertEquals(250, both.servers().get(0).options().schedulerSliceUs());
        assertEquals(250, both.clients().get(0).options().schedulerSliceUs());
    }

    @Test
    void defaultsGiveDefaultOptions() {
        InMemoryTransportFactory factory = new InMemoryTransportFactory();
        assertEquals(0, new CliHarness(factory, System::nanoTime).run("loopback", "-c", "rpc", "-T", "1").exitCode());
        assertEquals(PerfEndpointOptions.defaults(), factory.clients().get(0).options());
    }

    /** Without --transport both a server and a client run auto (epoll where it loads); loopback follows both. */
    @Test
    void theDefaultTransportIsAutoForServersAndClients() {
        InMemoryTransportFactory factory = new InMemoryTransportFactory();
        assertEquals(0, new CliHarness(factory, System::nanoTime).run("loopback", "-c", "rpc", "-T", "1").exitCode());
        assertEquals(TransportKind.AUTO, factory.servers().get(0).options().transport());
        assertEquals(TransportKind.AUTO, factory.clients().get(0).options().transport());
        InMemoryTransportFactory served = new InMemoryTransportFactory();
        assertEquals(0, new CliHarness(served, System::nanoTime).run("server", "-p", "0").exitCode());
        assertEquals(TransportKind.AUTO, served.servers().get(0).options().transport());
        InMemoryTransportFactory given = new InMemoryTransportFactory();
        assertEquals(0, new CliHarness(given, System::nanoTime).run("server", "-p", "0", "--transport", "nio")
                .exitCode());
        assertEquals(TransportKind.NIO, given.servers().get(0).options().transport());
    }

    @Test
    void aServerOnAFixedPortAlsoSaysWhenItIsReady() {
        InMemoryTransportFactory factory = new InMemoryTransportFactory();
        CliHarness.Outcome outcome = new CliHarness(factory, System::nanoTime).run("server", "-p", "7123");
        assertEquals(0, outcome.exitCode(), outcome.err());
        assertEquals("rxperf: server listening on port 7123\n", outcome.err());
        assertEquals("", outcome.out(), "stdout keeps OpenAFS's lines only");
    }

    @Test
    void serverStartsWithItsFlagsAndStops() {
        InMemoryTransportFactory factory = new InMemoryTransportFactory();
        CliHarness.Outcome outcome = new CliHarness(factory, System::nanoTime).run("server", "-p", "0", "-s", "4",
                "-S", "8", "-W", "100");
        assertEquals(0, outcome.exitCode(), outcome.err());
        InMemoryServer server = factory.servers().get(0);
        assertEquals("rxperf: server listening on port " + server.port() + "\n", outcome.err());
        assertEquals(4, server.options().minProcs());
        assertEquals(8, server.options().maxProcs());
        assertEquals(100, server.options().twind());
        assertEquals("", outcome.out());
    }

    @Test
    void noTransportIsARunTimeFailure() {
        CliHarness.Outcome outcome = CliHarness.withoutTransport().run("loopback", "-c", "send", "-b", "1000",
                "-T", "1");
        assertEquals(1, outcome.exitCode());
        assertEquals("rxperf: no Rx transport available\n", outcome.err());
        assertEquals("", outcome.out());
    }

    @Test
    void serverNotAnsweringIsOneLineExitOne() {
        CliHarness.Outcome outcome = CliHarness.inMemory().run("client", "-c", "send", "-p", "7009");
        assertEquals(1, outcome.exitCode());
        assertEquals("rxperf: call aborted with code -1 (RX_CALL_DEAD: server not answering, or the rxperf server "
                + "rejected the request)\n", outcome.err());
    }

    @Test
    void unknownHostIsOneLineWithItsOwnExitCode() {
        CliHarness.Outcome outcome = CliHarness.inMemory().run("client", "-c", "send", "-s", "no-such-host.invalid");
        assertEquals(3, outcome.exitCode());
        assertEquals("rxperf: unknown host 'no-such-host.invalid'\n", outcome.err());
    }

    @Test
    void debugAddsTheStackTrace() {
        CliHarness.Outcome outcome = CliHarness.withoutTransport().run("client", "-c", "send", "--debug");
        assertEquals(1, outcome.exitCode());
        List<String> lines = outcome.err().lines().toList();
        assertEquals("rxperf: no Rx transport available", lines.get(0));
        assertEquals("org.rx4j.perf.RxperfFailure: no Rx transport available", lines.get(1));
        assertTrue(lines.size() > 3);
        assertFalse(CliHarness.withoutTransport().run("client", "-c", "send").err().contains("\tat "));
    }
}
