// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.perf.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.rx4j.perf.client.RunResult;
import org.rx4j.perf.protocol.RxperfCommand;
import org.rx4j.perf.protocol.RxperfRequest;
import org.rx4j.perf.transport.PerfEndpointOptions;

/** Latency line, statistics block, progress lines and JSON, from fixed measurements. */
class ReportFormatsTest {
    private static final int CHUNK = 524288;

    private static RunReport rpcReport(Map<String, Long> clientStats) {
        Histogram latency = new Histogram(3);
        for (int i = 1; i <= 1000; i++) {
            latency.recordValue(i * 1000L);  // 1..1000 µs
        }
        RxperfRequest rpc = new RxperfRequest(RxperfCommand.RPC, 1048576, 4, 4, CHUNK, CHUNK, null);
        RunResult result = new RunResult(2_000_000_000L, 1000, 1, 8000, latency);
        return new RunReport(rpc, 1, 1000, "127.0.0.1", 7009, "test", PerfEndpointOptions.defaults(), true,
                result, clientStats, null);
    }

    @Test
    void rpcTextHasOnlyTheResultLineOnStdoutAndLatencyApart() {
        List<String> lines = TextReport.render(rpcReport(null));
        assertEquals(1, lines.size());
        assertEquals("RPC: threads\t1, times\t1000, write bytes\t4, read bytes\t4:\t    2000 msec\t[32 kbit/s]",
                lines.get(0));
        String latency = TextReport.latencyLine(rpcReport(null));
        // HdrHistogram reports a bucket's highest equivalent value: at most 0.1% above the recorded one
        assertTrue(latency.matches("RPC latency usec:\tp50 50[01]\\.\\d, p90 90[01]\\.\\d, p99 99[01]\\.\\d, "
                + "p99\\.9 (999|1000)\\.\\d, max 100[01]\\.\\d\t\\[500 calls/s\\]"), latency);
    }

    @Test
    void statsBlockGroupsByFirstNameSegment() {
        List<String> lines = StatsBlock.render("client",
                Map.of("packetsSent.data", 700L, "packetsSent.ack", 45L, "resends", 3L, "rtt.samples", 90L));
        assertEquals(List.of(
                "Rx statistics (client):",
                "  resends                                       3",
                "  packetsSent",
                "    ack                                        45",
                "    data                                      700",
                "  rtt",
                "    samples                                    90"), lines);
        assertEquals(List.of("Rx statistics (server): none reported"), StatsBlock.render("server", Map.of()));
    }

    @Test
    void textReportPrintsOpenAfsBlockThenRx4jCountersAfterTheResult() {
        List<String> lines = TextReport.render(rpcReport(Map.of("calls.started", 1000L)));
        assertEquals("rx stats:", lines.get(1));
        int rx4j = lines.indexOf("Rx statistics (client):");
        assertEquals(1 + OpenAfsStatsBlock.render(Map.of()).size(), rx4j);
        assertTrue(lines.get(rx4j + 2).contains("started") && lines.get(rx4j + 2).endsWith(" 1000"),
                lines.get(rx4j + 2));
    }

    @Test
    void openAfsBlockHasOpenAfsLayoutWithRx4jCounters() {
        List<String> lines = OpenAfsStatsBlock.render(Map.ofEntries(Map.entry("packetsReceived.DATA", 3L),
                Map.entry("packetsReceived.ACK", 115L), Map.entry("packetsSent.DATA", 80L),
                Map.entry("packetsSent.ACK", 4L), Map.entry("packetsSent.VERSION", 2L),
                Map.entry("dataPacketsSent", 213L), Map.entry("resends", 13L), Map.entry("rttSamples", 211L),
                Map.entry("rttMeanUs", 1500L), Map.entry("connections", 1L), Map.entry("peers", 1L)));
        assertEquals(List.of("rx stats:",
                "   packets read: data 3 ack 115 busy 0 abort 0 ackall 0 challenge 0 response 0 debug 0 params 0 "
                        + "unused 0 unused 0 unused 0 version 0 ",
                "   other read counters: data 0, ack 115, dup 0",
                "   packets sent: data 80 ack 4 busy 0 abort 0 ackall 0 challenge 0 response 0 debug 0 params 0 "
                        + "unused 0 unused 0 unused 0 version 2 ",
                "   other send counters: ack 4, data 200 (not resends), resends 13",
                "   \t(these should be small) sendFailed 0",
                "   Average rtt is 0.002, with 211 samples",
                "   Minimum rtt is 0.000, maximum is 0.000",
                "   1 connections, 1 peer structs"), lines);
    }

    @Test
    void jsonHasEveryFigure() throws Exception {
        String json = JsonReport.render(rpcReport(Map.of("calls.started", 1000L)), "9.9");
        assertFalse(json.contains("\n"), "one line");
        JsonNode root = new ObjectMapper().readTree(json);
        assertEquals("rxperf", root.get("tool").asText());
        assertEquals("9.9", root.get("version").asText());
        assertEquals("rpc", root.get("command").asText());
        assertEquals(1, root.get("threads").asInt());
        assertEquals(1000, root.get("times").asInt());
        assertEquals(4, root.get("sendBytes").asInt());
        assertEquals(4, root.get("receiveBytes").asInt());
        assertNull(root.get("bytes"), "rpc does not use -b");
        assertEquals(28_000, root.get("headerBytes").asLong(), "block, two sizes and the cookie per call");
        assertEquals(2_000_000, root.get("elapsedMicros").asLong());
        assertEquals(2000, root.get("elapsedMsec").asLong());
        assertEquals(8000, root.get("totalBytes").asLong());
        assertEquals(8000, root.get("payloadBytes").asLong());
        assertEquals(32.0, root.get("kbitPerSecond").asDouble(), 1e-9);
        assertEquals("32 kbit/s", root.get("rate").asText());
        assertEquals(500.0, root.get("callsPerSecond").asDouble(), 1e-9);
        assertTrue(root.get("result").asText().startsWith("RPC: threads\t1"));
        assertEquals(500.0, root.get("latencyMicros").get("p50").asDouble(), 0.5);
        assertEquals(999.0, root.get("latencyMicros").get("p99.9").asDouble(), 1.0);
        assertEquals(1000, root.get("latencyMicros").get("count").asLong());
        assertEquals(20, root.get("options").get("minPeerTimeoutMs").asInt());
        assertEquals("auto", root.get("options").get("transport").asText());
        assertEquals(1000, root.get("stats").get("client").get("calls.started").asLong());
        assertTrue(root.get("verify").asBoolean());
        assertNull(root.get("file"));
    }

    @Test
    void progressLineReportsTheIntervalsBytesAndRate() {
        LongAdder moved = new LongAdder();
        StringWriter text = new StringWriter();
        ProgressReporter progress = new ProgressReporter(moved, new PrintWriter(text), 5_000_000_000L, () -> 0);
        moved.add(250_000_000);
        assertEquals("[   0.0-   1.0 sec]\t     250000000 bytes\t[2 Gbit/s]", progress.tick(6_000_000_000L));
        moved.add(62_500_000);
        assertEquals("[   1.0-   2.0 sec]\t      62500000 bytes\t[500 Mbit/s]", progress.tick(7_000_000_000L));
        progress.close();
        assertNull(progress.tick(8_000_000_000L), "nothing after close");
        assertEquals(2, text.toString().lines().count());
    }

    @Test
    void progressLineCountsPerPacketFromTheStatisticsNotPerCall() {
        LongAdder moved = new LongAdder(); // moves only when a whole call ends
        java.util.Map<String, Long> stats = new java.util.HashMap<>();
        stats.put("payloadBytesAcked", 1_000L);
        stats.put("payloadBytesDelivered", 0L);
        StringWriter text = new StringWriter();
        ProgressReporter progress = new ProgressReporter(moved, new PrintWriter(text), 0L, () -> 0, () -> stats);
        stats.put("payloadBytesAcked", 126_000L);
        stats.put("payloadBytesDelivered", 1_000L);
        String line = progress.tick(1_000_000_000L);
        assertTrue(line.startsWith("[   0.0-   1.0 sec]\t        126000 bytes\t[1.008 Mbit/s]"), line);
        moved.add(1_048_576); // a call ended: its bytes were already counted packet by packet
        line = progress.tick(2_000_000_000L);
        assertTrue(line.startsWith("[   1.0-   2.0 sec]\t             0 bytes"), line);
        progress.close();
    }

    @Test
    void theLastWholeIntervalIsPrintedAtTheEndAPartialOneIsNot() {
        LongAdder moved = new LongAdder();
        StringWriter text = new StringWriter();
        ProgressReporter progress = new ProgressReporter(moved, new PrintWriter(text), 0L, () -> 0);
        progress.start(1_000_000_000L);
        progress.tick(1_000_000_000L);
        progress.tick(2_000_000_000L);
        progress.finish(3_002_000_000L); // the run's last second; the timer's own tick lost the race
        assertEquals(3, text.toString().lines().count(), text.toString());
        assertTrue(text.toString().lines().toList().get(2).startsWith("[   2.0-   3.0 sec]"), text.toString());
        assertNull(progress.tick(4_000_000_000L), "closed");

        StringWriter partial = new StringWriter();
        ProgressReporter p2 = new ProgressReporter(moved, new PrintWriter(partial), 0L, () -> 0);
        p2.start(1_000_000_000L);
        p2.tick(1_000_000_000L);
        p2.finish(1_500_000_000L);
        assertEquals(1, partial.toString().lines().count(), "no line for half an interval: " + partial);
    }

    @Test
    void everyWholeIntervalIsPrintedHoweverTheTimerAndTheRunsEndFall() {
        // 20 runs of --time 3 --interval 1: the timer runs late by up to 0.3 s (a loaded machine), the run ends up
        // to 50 ms after 3 s, and the timer's third tick comes before or after the run's end
        java.util.Random random = new java.util.Random(22);
        for (int run = 0; run < 20; run++) {
            StringWriter text = new StringWriter();
            long start = 1_000_000_000L * run;
            ProgressReporter progress = new ProgressReporter(new LongAdder(), new PrintWriter(text), start, () -> 0);
            progress.start(1_000_000_000L);
            long lateness = random.nextInt(300_000_000);
            progress.tick(start + 1_000_000_000L + lateness);
            progress.tick(start + 2_000_000_000L + random.nextInt(300_000_000));
            long end = start + 3_000_000_000L + random.nextInt(50_000_000);
            long thirdTick = start + 3_000_000_000L + random.nextInt(300_000_000);
            if (thirdTick < end) {
                progress.tick(thirdTick);
            }
            progress.finish(end);
            progress.tick(thirdTick); // a tick after the end prints nothing
            List<String> lines = text.toString().lines().toList();
            assertEquals(3, lines.size(), "run " + run + ": " + text);
            assertTrue(lines.get(2).startsWith("[   2.0-   3.0 sec]"), lines.get(2));
        }
    }

    @Test
    void jsonLeavesOutWhatWasNotMeasured() throws Exception {
        JsonNode root = new ObjectMapper().readTree(JsonReport.render(rpcReport(Map.of("rttSamples", 0L,
                "path.srttUs", 3_000_000L, "path.rtoUs", 3_200_000L, "cc.cwnd", 4L)), "9.9"));
        JsonNode client = root.get("stats").get("client");
        assertNull(client.get("path.srttUs"), "the preset is not a measurement");
        assertNull(client.get("path.rtoUs"));
        assertEquals(4, client.get("cc.cwnd").asLong());
        root = new ObjectMapper().readTree(JsonReport.render(rpcReport(Map.of("rttSamples", 2L, "path.srttUs",
                300L)), "9.9"));
        assertEquals(300, root.get("stats").get("client").get("path.srttUs").asLong());
        assertNull(root.get("firstCallMicros"), "not measured");
        RxperfRequest rpc = new RxperfRequest(RxperfCommand.RPC, 1048576, 4, 4, CHUNK, CHUNK, null);
        RunResult result = new RunResult(2_000_000_000L, 2, 1, 16, null, -1, 0, -1, 80_500_000L);
        root = new ObjectMapper().readTree(JsonReport.render(new RunReport(rpc, 1, 2, "127.0.0.1", 7009, "test",
                PerfEndpointOptions.defaults(), false, result, null, null), "9.9"));
        assertEquals(80_500, root.get("firstCallMicros").asLong());
    }

    @Test
    void progressBytesAreTheApplicationPayloadWithHeadersApart() {
        java.util.Map<String, Long> stats = new java.util.HashMap<>();
        stats.put("payloadBytesAcked", 0L);
        stats.put("payloadBytesDelivered", 0L);
        stats.put("callsSucceeded", 0L);
        StringWriter text = new StringWriter();
        ProgressReporter progress = new ProgressReporter(new LongAdder(), new PrintWriter(text), 0L, () -> 0,
                () -> stats, 28);
        // 1000 rpc calls of -S 3 -R 30: 27 request bytes acked and 34 reply bytes delivered per call
        stats.put("payloadBytesAcked", 27_000L);
        stats.put("payloadBytesDelivered", 34_000L);
        stats.put("callsSucceeded", 1000L);
        String line = progress.tick(1_000_000_000L);
        assertTrue(line.startsWith("[   0.0-   1.0 sec]\t         33000 bytes\t[264 kbit/s]"), line);
        assertTrue(line.endsWith("\theaders 28000 bytes"), line);
        progress.close();
    }

    @Test
    void rttIsADashBeforeTheFirstSample() {
        java.util.Map<String, Long> stats = new java.util.HashMap<>();
        stats.put("rttSamples", 0L);
        stats.put("path.srttUs", 3_000_000L); // the preset, not a measurement
        ProgressReporter progress = new ProgressReporter(new LongAdder(), new PrintWriter(new StringWriter()), 0L,
                () -> 0, () -> stats);
        assertTrue(progress.tick(1_000_000_000L).contains("\trtt -\t"));
        stats.put("rttSamples", 3L);
        stats.put("path.srttUs", 10_310L);
        assertTrue(progress.tick(2_000_000_000L).contains("\trtt 10.31 ms\t"));
        progress.close();
    }

    @Test
    void latencyLineNamesTheSlowestCallAfterTheFirst() {
        Histogram latency = new Histogram(3);
        latency.recordValue(40_000_000L);
        latency.recordValue(1_000_000L);
        RxperfRequest rpc = new RxperfRequest(RxperfCommand.RPC, 1048576, 4, 4, CHUNK, CHUNK, null);
        RunResult result = new RunResult(2_000_000_000L, 2, 1, 16, latency, -1, 0, 1_000_000L);
        RunReport report = new RunReport(rpc, 1, 2, "127.0.0.1", 7009, "test", PerfEndpointOptions.defaults(), true,
                result, null, null);
        String line = TextReport.latencyLine(report);
        assertTrue(line.matches("RPC latency usec:\\tp50 .*, max 400[0-9]{2}\\.\\d, after first 1000\\.0"
                + "\\t\\[1 calls/s\\]"), line);
        String json = JsonReport.render(report, "test");
        assertTrue(json.contains("\"maxAfterFirst\":1000.0"), json);
    }
}
