// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.metrics.micrometer;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.TimeGauge;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.rx4j.rpc.stats.ProcedureMetrics;
import org.rx4j.rpc.errors.RxErrorTables;
import org.rx4j.rpc.RxEndpoint;

/**
 * Binds an {@link RxEndpoint}'s per-procedure call metrics ({@link RxEndpoint#metrics()}; docs/embedding.md,
 * "Metrics") to Micrometer meters, tagged {@code side} ({@code client}/{@code server}), {@code service} (the Rx
 * service id), {@code opcode} and {@code proc} (the name {@link RxEndpoint#procName} gives, else the opcode again, so
 * every meter of a name has the same tag keys), plus the tags given here:
 * <ul>
 *   <li>{@value #CALLS}: a function counter of the calls that ended;</li>
 *   <li>{@value #ERRORS}: a function counter per Rx code a call failed with, tagged {@code code} (e.g. {@code -3},
 *       {@code 185856}) and {@code code.name} (the code's name: {@code RX_CALL_TIMEOUT}, or for an application code
 *       its name in a table registered with {@link RxErrorTables} when its meter is registered, e.g.
 *       {@code KV_NOKEY}; else the number again, so every meter of the name has the same tag keys);</li>
 *   <li>{@value #LATENCY}: a function timer (count and total time) of the calls' durations;</li>
 *   <li>{@value #LATENCY_PERCENTILE}: time gauges of the 0.5, 0.9 and 0.99 percentiles and the maximum, tagged
 *       {@code quantile} ({@code 0.5}, {@code 0.9}, {@code 0.99}, {@code max}), read from rx4j's own histogram
 *       (deprecated: percentiles do not aggregate; {@link RxCallTimers} publishes histogram buckets that do).</li>
 * </ul>
 * Every meter reads the endpoint's live counters when the registry asks (it holds the endpoint weakly, as
 * Micrometer's function meters do). A procedure, or an error code, first seen after {@link #bindTo} gets its meters
 * at the next {@link #refresh()}; call it from a periodic task or before a scrape. Thread-safe.
 */
public final class RxMetricsBinder implements MeterBinder {
    /** Meter name of the calls counter. */
    public static final String CALLS = "rx.calls";
    /** Meter name of the failed-calls counters, one per Rx code. */
    public static final String ERRORS = "rx.call.errors";
    /** Meter name of the latency timer. */
    public static final String LATENCY = "rx.call.latency";
    /**
     * Meter name of the latency percentile gauges.
     *
     * @deprecated one endpoint's percentiles, which no dashboard can aggregate over procedures or instances; use
     *     {@link RxCallTimers}' histogram buckets ({@value RxCallTimers#DURATION}), which also need no
     *     {@link #refresh()}. The gauges are still registered.
     */
    @Deprecated
    public static final String LATENCY_PERCENTILE = "rx.call.latency.percentile";

    private static final double[] QUANTILES = {0.5, 0.9, 0.99};

    private final RxEndpoint endpoint;
    private final Tags tags;
    /** The registries bound so far, each with the meters registered in it (so a refresh registers only new ones). */
    private final List<Bound> bound = new CopyOnWriteArrayList<>();

    /** A registry and the keys ({@code side/service/opcode}, {@code side/service/opcode/code}) registered in it. */
    private record Bound(MeterRegistry registry, Set<String> registered) {
    }

    /**
     * @param endpoint the endpoint whose metrics to bind
     * @param tags tags added to every meter (e.g. {@code Tags.of("endpoint", "vlserver")})
     */
    public RxMetricsBinder(RxEndpoint endpoint, Iterable<Tag> tags) {
        this.endpoint = Objects.requireNonNull(endpoint, "endpoint");
        this.tags = Tags.of(tags);
    }

    /** @param endpoint the endpoint whose metrics to bind, without extra tags */
    public RxMetricsBinder(RxEndpoint endpoint) {
        this(endpoint, Tags.empty());
    }

    /**
     * Registers the meters of every procedure and error code seen so far, and remembers {@code registry} for
     * {@link #refresh()}.
     *
     * @param registry the registry
     */
    @Override
    public void bindTo(MeterRegistry registry) {
        Bound b = new Bound(registry, ConcurrentHashMap.newKeySet());
        bound.add(b);
        register(b);
    }

    /**
     * Registers meters for procedures and error codes first seen since the last bind or refresh, in every registry
     * bound so far; meters already registered stay (a registry keeps one meter per name and tags).
     */
    public void refresh() {
        for (Bound b : bound) {
            register(b);
        }
    }

    private void register(Bound b) {
        for (ProcedureMetrics p : endpoint.metrics()) {
            String key = p.side() + "/" + p.serviceId() + "/" + p.opcode();
            for (int code : p.errorsByCode().keySet()) {
                if (b.registered().add(key + "/" + code)) {
                    registerErrors(b.registry(), p, code);
                }
            }
            if (b.registered().add(key)) {
                registerProcedure(b.registry(), p);
            }
        }
    }

    private Tags tags(ProcedureMetrics p) {
        String opcode = Integer.toString(p.opcode());
        // Every meter of a name has the same tag keys (Prometheus needs that): an unnamed procedure's proc is its opcode.
        return tags.and("side", p.side(), "service", Integer.toString(p.serviceId()), "opcode", opcode, "proc",
                endpoint.procName(p.serviceId(), p.opcode()).orElse(opcode));
    }

    private void registerErrors(MeterRegistry registry, ProcedureMetrics p, int code) {
        boolean server = p.server();
        int service = p.serviceId();
        int opcode = p.opcode();
        FunctionCounter.builder(ERRORS, endpoint,
                        e -> read(e, server, service, opcode).errorsByCode().getOrDefault(code, 0L))
                .tags(tags(p).and("code", Integer.toString(code), "code.name", codeName(code)))
                .description("Rx calls that failed, by Rx code").register(registry);
    }

    /**
     * @return the name of an Rx or rxgen code, or of an application code in a registered error table (as
     *     {@link RxErrorTables#name} gives it), else the code in decimal
     */
    static String codeName(int code) {
        String name = RxErrorTables.name(code);
        return name.startsWith("error ") ? Integer.toString(code) : name;
    }

    private void registerProcedure(MeterRegistry registry, ProcedureMetrics p) {
        Tags t = tags(p);
        boolean server = p.server();
        int service = p.serviceId();
        int opcode = p.opcode();
        FunctionCounter.builder(CALLS, endpoint, e -> read(e, server, service, opcode).calls())
                .tags(t).description("Rx calls that ended").register(registry);
        FunctionTimer.builder(LATENCY, endpoint, e -> read(e, server, service, opcode).latency().count(),
                        e -> read(e, server, service, opcode).latency().totalNs(), TimeUnit.NANOSECONDS)
                .tags(t).description("Rx call durations").register(registry);
        for (double q : QUANTILES) {
            TimeGauge.builder(LATENCY_PERCENTILE, endpoint, TimeUnit.NANOSECONDS,
                            e -> read(e, server, service, opcode).latency().percentileNs(q))
                    .tags(t.and("quantile", Double.toString(q))).register(registry);
        }
        TimeGauge.builder(LATENCY_PERCENTILE, endpoint, TimeUnit.NANOSECONDS,
                        e -> read(e, server, service, opcode).latency().maxNs())
                .tags(t.and("quantile", "max")).register(registry);
    }

    /** One procedure's snapshot; a procedure once seen never disappears from its endpoint. */
    private static ProcedureMetrics read(RxEndpoint e, boolean server, int service, int opcode) {
        return e.metrics(server, service, opcode).orElseThrow();
    }
}
