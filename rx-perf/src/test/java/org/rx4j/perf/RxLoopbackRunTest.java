// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.rx4j.perf.rx.RxPerfTransportFactory;

/**
 * rxperf end to end over rx4j's real transport on loopback sockets: every workload with --verify, and the
 * transport flags (jumbograms off, hard-ACK-only, windows, 46-packet jumbograms, several connections).
 */
@Timeout(120)
class RxLoopbackRunTest {
    private static final String NUMBER = "[0-9.e+-]+ [kMG]bit/s";

    private static CliHarness.Outcome run(String... args) {
        return new CliHarness(new RxPerfTransportFactory(), System::nanoTime).run(args);
    }

    @ParameterizedTest(name = "flags [{0}]")
    @ValueSource(strings = {"", "-j", "--hard-acks-only", "-W 255", "-W 16", "--jumbo-max 46 -W 255",
            "-t 8 -T 4", "--twind 64 --rwind 8", "-m 1000", "--transport epoll", "--transport epoll -j",
            "--cc bbr", "--cc bbr -W 255", "--cc bbr -t 8 -T 4", "--cc newreno"})
    void sendAndRecvWithVerify(String flags) {
        for (String command : new String[] {"send", "recv"}) {
            String[] extra = flags.isEmpty() ? new String[0] : flags.split(" ");
            String[] args = new String[7 + extra.length];
            String[] base = {"loopback", "-c", command, "-b", "262144", "-T", "8"};
            System.arraycopy(base, 0, args, 0, base.length);
            System.arraycopy(extra, 0, args, base.length, extra.length);
            String[] withVerify = java.util.Arrays.copyOf(args, args.length + 1);
            withVerify[args.length] = "--verify";
            CliHarness.Outcome o = run(withVerify);
            assertEquals(0, o.exitCode(), command + " " + flags + ": " + o.err());
            String threads = flags.contains("-t 8") ? "8" : "1";
            String times = flags.contains("-T 4") ? "4" : "8";
            assertTrue(o.out().matches(command.toUpperCase() + ": threads\t" + threads + ", times\t" + times
                    + ", bytes\t262144:\t +\\d+ msec\t\\[" + NUMBER + "\\]\n"), o.out());
        }
    }

    @Test
    void rpcWithVerify() {
        CliHarness.Outcome o = run("loopback", "-c", "rpc", "-S", "4", "-R", "30", "-T", "500", "--verify");
        assertEquals(0, o.exitCode(), o.err());
        assertTrue(o.out().startsWith("RPC: threads\t1, times\t500, write bytes\t4, read bytes\t30:\t"), o.out());
        assertTrue(o.err().contains("RPC latency usec:\tp50 "), o.err());
    }

    @Test
    void rpcOnThreadsAndAsChainsPrintTheSameLines() {
        for (String mode : new String[] {"--threaded", "--debug"}) {
            CliHarness.Outcome o = run("loopback", "-c", "rpc", "-S", "4", "-R", "30", "-T", "100", "-t", "8",
                    "--verify", mode);
            assertEquals(0, o.exitCode(), o.err());
            assertTrue(o.out().startsWith("RPC: threads\t8, times\t100, write bytes\t4, read bytes\t30:\t"),
                    o.out());
            assertTrue(o.err().contains("RPC latency usec:\tp50 "), o.err());
        }
    }

    @Test
    void bigRpcWithVerify() {
        CliHarness.Outcome o = run("loopback", "-c", "rpc", "-S", "100000", "-R", "100000", "-T", "20", "--verify");
        assertEquals(0, o.exitCode(), o.err());
        assertTrue(o.out().startsWith("RPC: threads\t1, times\t20, write bytes\t100000, read bytes\t100000:\t"),
                o.out());
    }

    @Test
    void fileWithVerify(@TempDir Path dir) throws IOException {
        Path words = dir.resolve("words.txt");
        Files.writeString(words, "1000\n25000\n\n40000\n7\n");
        CliHarness.Outcome o = run("loopback", "-c", "file", "-f", words.toString(), "-T", "5", "--verify");
        assertEquals(0, o.exitCode(), o.err());
        assertTrue(o.out().startsWith("FILE " + words + ": threads\t1, times\t5, bytes\t1048576:\t"), o.out());
    }

    @Test
    void statsDumpShowsRx4jCounters() {
        CliHarness.Outcome o = run("loopback", "-c", "send", "-b", "100000", "-T", "3", "-D");
        assertEquals(0, o.exitCode(), o.err());
        assertTrue(o.out().contains("dataPacketsSent"), o.out());
        assertTrue(o.out().contains("rttSamples"), o.out());
    }

    @Test
    void statsDumpCarriesTheCongestionControllersState() {
        CliHarness.Outcome o = run("loopback", "-c", "send", "-b", "1000000", "-T", "4", "-D", "--cc", "bbr");
        assertEquals(0, o.exitCode(), o.err());
        assertTrue(o.out().contains("cwnd"), o.out());
        assertTrue(o.out().contains("srttUs"), o.out());
        assertTrue(o.out().contains("bbr"), "the BBR state is named: " + o.out());
    }

    @Test
    void jsonCarriesThePathWithoutD() throws IOException {
        CliHarness.Outcome o = run("loopback", "-c", "send", "-b", "1000000", "-T", "2", "--json");
        assertEquals(0, o.exitCode(), o.err());
        com.fasterxml.jackson.databind.JsonNode client = new com.fasterxml.jackson.databind.ObjectMapper()
                .readTree(o.out()).get("stats").get("client");
        assertTrue(client.get("cc.cwnd").asLong() > 0, o.out());
        assertTrue(client.has("path.srttUs") && client.has("path.resends"), o.out());
        assertTrue(!client.has("dataPacketsSent"), "only the path entries without -D: " + o.out());
    }

    @Test
    void intervalLinesCarryRttCwndAndResends() {
        CliHarness.Outcome o = run("loopback", "-c", "send", "-b", "1000000", "--time", "2", "--interval", "0.5");
        assertEquals(0, o.exitCode(), o.err());
        String[] lines = o.err().strip().split("\n");
        assertTrue(lines.length >= 2, o.err());
        for (String line : lines) {
            assertTrue(line.matches("\\[ *[0-9.]+- *[0-9.]+ sec\\]\t +\\d+ bytes\t\\[.*\\]\trtt [0-9.]+ ms"
                    + "\tcwnd \\d+\tresends \\d+\theaders \\d+ bytes"), line);
        }
    }

    @Test
    void timedRunReportsCpuFieldsInJson() throws IOException {
        CliHarness.Outcome o = run("loopback", "-c", "send", "-b", "65536", "--time", "1", "--json");
        assertEquals(0, o.exitCode(), o.err());
        com.fasterxml.jackson.databind.JsonNode root = new com.fasterxml.jackson.databind.ObjectMapper()
                .readTree(o.out());
        assertTrue(root.get("times").asInt() > 0, o.out());
        assertEquals(root.get("calls").asLong() * 65536, root.get("totalBytes").asLong(), o.out());
        assertTrue(root.get("cpu").get("processSeconds").asDouble() > 0, o.out());
        assertTrue(root.get("cpu").has("secondsPerGiB") && root.get("cpu").has("microsPerCall"), o.out());
        assertTrue(root.get("elapsedMicros").asLong() >= 1_000_000, o.out());
    }
}
