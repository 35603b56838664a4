// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.perf.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Locale;
import java.util.Map;
import org.rx4j.perf.protocol.RxperfCommand;
import org.rx4j.perf.protocol.RxperfRequest;
import org.rx4j.perf.transport.PerfEndpointOptions;

/**
 * {@code --json}: one JSON object on one line with every figure of a run (field list in docs/rxperf.md).
 * Sizes in bytes, times in µs/ms as the field names say, rates in kbit/s (decimal).
 */
public final class JsonReport {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private JsonReport() {
    }

    /**
     * Renders the report.
     *
     * @param report the run's report
     * @param version rx4j's version
     * @return one line of JSON
     */
    public static String render(RunReport report, String version) {
        RxperfRequest request = report.request();
        ObjectNode root = MAPPER.createObjectNode();
        root.put("tool", "rxperf");
        root.put("version", version);
        root.put("transport", report.transportName());
        root.put("command", request.command().flagValue());
        if (request.command() == RxperfCommand.FILE) {
            root.put("file", request.fileWords().name());
            root.put("fileWords", request.fileWords().size());
        }
        root.put("server", report.server());
        root.put("port", report.port());
        root.put("threads", report.threads());
        root.put("times", report.times());
        // the flags the command uses; the others' defaults would read as measured settings
        if (report.isRpc()) {
            root.put("sendBytes", request.sendBytes());
            root.put("receiveBytes", request.receiveBytes());
        } else {
            root.put("bytes", request.bytes());
        }
        root.put("readSize", request.readSize());
        root.put("writeSize", request.writeSize());
        root.put("verify", report.verify());
        root.put("connections", report.result().connections());
        root.put("calls", report.result().calls());
        root.put("elapsedMicros", report.result().elapsedMicros());
        root.put("elapsedMsec", report.result().elapsedMicros() / 1000);
        root.put("totalBytes", report.totalBytes());
        root.put("payloadBytes", report.result().payloadBytes());
        root.put("headerBytes", report.result().calls() * request.headerBytesPerCall());
        root.put("kbitPerSecond", report.kbitPerSecond());
        root.put("rate", RateFormat.format(report.kbitPerSecond()));
        root.put("callsPerSecond", report.callsPerSecond());
        if (report.result().firstCallNanos() >= 0) {
            root.put("firstCallMicros", report.result().firstCallNanos() / 1000);
        }
        root.put("result", report.resultLine());
        if (report.isTimed()) {
            root.put("timeSeconds", report.timeSeconds());
            root.put("omitSeconds", report.omitSeconds());
            root.put("omittedCalls", report.result().omittedCalls());
        }
        if (!Double.isNaN(report.cpuSeconds())) {
            ObjectNode cpu = root.putObject("cpu");
            cpu.put("processSeconds", report.cpuSeconds());
            putFinite(cpu, "secondsPerGiB", report.cpuSecondsPerGiB());
            putFinite(cpu, "microsPerCall", report.cpuMicrosPerCall());
        }
        LatencySummary latency = report.latency();
        if (latency != null) {
            ObjectNode node = root.putObject("latencyMicros");
            node.put("p50", latency.p50());
            node.put("p90", latency.p90());
            node.put("p99", latency.p99());
            node.put("p99.9", latency.p999());
            node.put("max", latency.max());
            if (latency.maxAfterFirst() >= 0) {
                node.put("maxAfterFirst", latency.maxAfterFirst());
            }
            node.put("mean", latency.mean());
            node.put("count", latency.count());
        }
        putOptions(root.putObject("options"), report.options());
        if (report.clientStats() != null || report.serverStats() != null) {
            ObjectNode stats = root.putObject("stats");
            putStats(stats, "client", report.clientStats());
            putStats(stats, "server", report.serverStats());
        }
        try {
            return MAPPER.writeValueAsString(root);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot render JSON", e);
        }
    }

    /** JSON has no NaN: a figure that cannot be computed is left out. */
    private static void putFinite(ObjectNode node, String name, double value) {
        if (Double.isFinite(value)) {
            node.put(name, value);
        }
    }

    private static void putOptions(ObjectNode node, PerfEndpointOptions options) {
        node.put("twind", options.twind());
        node.put("rwind", options.rwind());
        node.put("jumbo", options.jumbo());
        node.put("jumboMax", options.jumboMax());
        node.put("maxMtu", options.maxMtu());
        node.put("udpBufferBytes", options.udpBufferBytes());
        node.put("minPeerTimeoutMs", options.minPeerTimeoutMs());
        node.put("hardAcksOnly", options.hardAcksOnly());
        node.put("transport", options.transport().name().toLowerCase(Locale.ROOT));
        node.put("statistics", options.statistics());
        node.put("segmentationOffload", options.segmentationOffload());
        node.put("receiveOffload", options.receiveOffload());
        node.put("fragmentJumbograms", options.fragmentJumbograms());
        node.put("idleSpinUs", options.idleSpinUs());
        node.put("schedulerSliceUs", options.schedulerSliceUs());
    }

    /**
     * Whether a counter holds a preset rather than a measurement: the path's srtt and RTO before the first RTT
     * sample are the 3 s and 3.2 s OpenAFS starts from (docs/rxperf.md "-D statistics"); JSON leaves them out.
     *
     * @param stats the endpoint's statistics, with {@code rttSamples}
     * @param key a counter name
     * @return true for {@code path.srttUs} and {@code path.rtoUs} while {@code rttSamples} is 0
     */
    public static boolean isPreset(Map<String, Long> stats, String key) {
        return (key.equals("path.srttUs") || key.equals("path.rtoUs")) && stats.getOrDefault("rttSamples", 1L) == 0;
    }

    private static void putStats(ObjectNode parent, String name, Map<String, Long> stats) {
        if (stats == null) {
            return;
        }
        ObjectNode node = parent.putObject(name);
        new java.util.TreeMap<>(stats).forEach((key, value) -> {
            if (!isPreset(stats, key)) {
                node.put(key, value);
            }
        });
    }
}
