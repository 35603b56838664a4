// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.metrics.micrometer;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.util.ArrayList;
import java.util.List;
import org.rx4j.rpc.stats.ProcedureMetrics;
import org.rx4j.rpc.RxEndpoint;

/**
 * The docs/embedding.md "Metrics" example, included there verbatim ({@link MetricsDocTest}) and run by
 * {@link MetricsExampleTest}.
 */
final class MetricsExample {
    private MetricsExample() {
    }

    /**
     * Binds {@code endpoint} to {@code registry} and lists its procedures as the API reads them.
     *
     * @param endpoint an endpoint that made or served calls
     * @param registry any Micrometer registry
     * @return one line per procedure
     */
    static List<String> bindAndList(RxEndpoint endpoint, MeterRegistry registry) {
        List<String> lines = new ArrayList<>();
        // metrics-example:begin
        // Micrometer: counters rx.calls and rx.call.errors (tag code), timer rx.call.latency, gauges
        // rx.call.latency.percentile (tag quantile), each tagged side, service, opcode and proc.
        RxMetricsBinder binder = new RxMetricsBinder(endpoint, Tags.of("endpoint", "kv"));
        binder.bindTo(registry);
        // ... later, e.g. before each scrape: meters for procedures and error codes seen since
        binder.refresh();

        // The same numbers from the API, without Micrometer:
        for (ProcedureMetrics p : endpoint.metrics()) {
            lines.add(p.side() + " service " + p.serviceId() + " opcode " + p.opcode() + ": " + p.calls()
                    + " calls, errors " + p.errorsByCode() + ", p99 " + p.latency().percentileNs(0.99) / 1000
                    + " us");
        }
        // metrics-example:end
        return lines;
    }
}
