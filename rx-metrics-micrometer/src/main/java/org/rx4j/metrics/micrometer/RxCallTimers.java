// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.metrics.micrometer;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.rx4j.rpc.stats.ProcedureMetrics;
import org.rx4j.rpc.RxCallEnd;
import org.rx4j.rpc.RxCallInfo;
import org.rx4j.rpc.RxClientInterceptor;
import org.rx4j.rpc.RxEndpoint;
import org.rx4j.rpc.errors.RxException;
import org.rx4j.rpc.RxServerInterceptor;

/**
 * Records every call of an endpoint, as it ends, in a Micrometer {@link Timer} named {@value #DURATION} that
 * publishes a percentile histogram (docs/embedding.md, "Metrics"): fixed buckets (Micrometer's, from
 * {@value #MIN_EXPECTED_US} us to {@value #MAX_EXPECTED_S} s, plus the service-level objectives given here), which a
 * Prometheus registry exports as {@code rx_call_duration_seconds_bucket{...,le="..."}} cumulative counters, so
 * {@code histogram_quantile} can aggregate them over procedures and instances, unlike the percentile gauges of
 * {@link RxMetricsBinder}. A meter is registered when its first call ends: nothing to refresh.
 *
 * <p>Fed by the endpoint's interceptor hook ({@link RxServerInterceptor}, {@link RxClientInterceptor}; docs/embedding.md
 * "Interceptors"), so add {@link #server()} and {@link #client()} to the endpoint's builder. The recorded duration is
 * the one the endpoint's metrics and call log report ({@link RxCallEnd#ended}: ns on the endpoint's clock, a server
 * call up to its reply). Calls the RPC layer refuses before any interceptor runs (an unknown opcode, a request shorter
 * than an opcode, a closing endpoint) are not recorded here; {@link RxMetricsBinder}'s counters have them.
 *
 * <p>Tags: {@code side} ({@code client}/{@code server}), {@code service}, {@code opcode} ({@code -1},
 * {@link ProcedureMetrics#UNKNOWN_OPCODE}, when the call form does not know it: the whole-stream client forms),
 * {@code proc} (the name {@link RxEndpoint.Builder#procNames} gives, else the opcode again), {@code code} (0 for a
 * completed call, else its abort code) and {@code code.name} ({@code OK}, or the name
 * {@link RxMetricsBinder}'s error counters give), {@code reason} ({@code none} for a completed call, else which of the
 * causes sharing the code it was, as {@code RxException.reason()} in lower case: {@code peer}, {@code no_answer},
 * {@code peer_unreachable}, {@code refused}, {@code endpoint_closing}, ...; docs/errors.md "Local reasons"), plus the
 * tags given here: every meter of the name has the same tag
 * keys, as Prometheus needs. Thread-safe; one instance may serve several endpoints (tell them apart with a tag).
 */
public final class RxCallTimers {
    /** Meter name of the call duration timers (Prometheus: {@code rx_call_duration_seconds}). */
    public static final String DURATION = "rx.call.duration";
    /** The smallest bucket bound the histogram starts from, us (a loopback call takes tens of us). */
    public static final long MIN_EXPECTED_US = 100;
    /** The largest bucket bound below +Inf, s (beyond Rx's default 12 s dead time). */
    public static final long MAX_EXPECTED_S = 60;

    private final MeterRegistry registry;
    private final Tags tags;
    private final Duration[] slos;
    /** One timer per procedure, code and reason, so a call end costs a map lookup, not a registry lookup. */
    private final ConcurrentHashMap<Key, Timer> timers = new ConcurrentHashMap<>();

    /** What tells one timer from another; the procedure's name follows from the endpoint's service and opcode. */
    private record Key(boolean server, int serviceId, int opcode, String procName, int code, String reason) {
    }

    /**
     * @param registry where the timers are registered
     * @param tags tags added to every timer (e.g. {@code Tags.of("endpoint", "vlserver")})
     * @param serviceLevelObjectives extra bucket bounds, e.g. a procedure's latency goals (Micrometer's
     *     {@code Timer.Builder#serviceLevelObjectives}); none for Micrometer's buckets alone
     */
    public RxCallTimers(MeterRegistry registry, Iterable<Tag> tags, Duration... serviceLevelObjectives) {
        this.registry = Objects.requireNonNull(registry, "registry");
        this.tags = Tags.of(tags);
        this.slos = serviceLevelObjectives.clone();
        for (Duration d : slos) {
            Objects.requireNonNull(d, "serviceLevelObjectives");
        }
    }

    /** @param registry where the timers are registered, without extra tags or service-level objectives */
    public RxCallTimers(MeterRegistry registry) {
        this(registry, Tags.empty());
    }

    /**
     * @return an interceptor for {@link RxEndpoint.Builder#serverInterceptor} that records each served call's
     *     duration when it ends; it admits every call
     */
    public RxServerInterceptor server() {
        return this::intercept;
    }

    /**
     * @return an interceptor for {@link RxEndpoint.Builder#clientInterceptor} that records each call's duration when
     *     it ends; it admits every call
     */
    public RxClientInterceptor client() {
        return this::intercept;
    }

    private RxCallEnd intercept(RxCallInfo call) {
        boolean server = call.isServer();
        int service = call.serviceId();
        int opcode = call.opcode().orElse(ProcedureMetrics.UNKNOWN_OPCODE);
        String proc = call.procName().orElse(null);
        // The end runs on the event loop (or the thread that gave up the call): a lookup and a record, no blocking.
        return new RxCallEnd() {
            @Override
            public void ended(int code, long durationNs) {
                ended(code, null, durationNs);
            }

            @Override
            public void ended(int code, RxException.Reason reason, long durationNs) {
                timer(new Key(server, service, opcode, proc, code, reasonTag(code, reason)))
                        .record(durationNs, TimeUnit.NANOSECONDS);
            }
        };
    }

    /**
     * @param code the call's end code
     * @param reason its reason, or null
     * @return the {@code reason} tag: {@code none} for a completed call, else the reason's name in lower case
     *     ({@code peer}, {@code no_answer}, {@code endpoint_closing}, ...; docs/errors.md "Local reasons"), or
     *     {@code other} when none is known
     */
    static String reasonTag(int code, RxException.Reason reason) {
        if (code == 0) {
            return "none";
        }
        return (reason == null ? RxException.Reason.OTHER : reason).name().toLowerCase(java.util.Locale.ROOT);
    }

    private Timer timer(Key k) {
        Timer t = timers.get(k);
        return t != null ? t : timers.computeIfAbsent(k, this::register);
    }

    private Timer register(Key k) {
        String opcode = Integer.toString(k.opcode());
        return Timer.builder(DURATION)
                .tags(tags.and("side", k.server() ? "server" : "client", "service", Integer.toString(k.serviceId()),
                        "opcode", opcode, "proc", k.procName() != null ? k.procName() : opcode,
                        "code", Integer.toString(k.code()),
                        "code.name", k.code() == 0 ? "OK" : RxMetricsBinder.codeName(k.code()),
                        "reason", k.reason()))
                .description("Rx call durations, as a histogram")
                .publishPercentileHistogram()
                .minimumExpectedValue(Duration.ofNanos(TimeUnit.MICROSECONDS.toNanos(MIN_EXPECTED_US)))
                .maximumExpectedValue(Duration.ofSeconds(MAX_EXPECTED_S))
                .serviceLevelObjectives(slos)
                .register(registry);
    }
}
