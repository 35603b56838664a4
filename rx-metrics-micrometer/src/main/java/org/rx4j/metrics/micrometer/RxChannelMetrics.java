// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.metrics.micrometer;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Objects;
import java.util.function.ToDoubleFunction;
import org.rx4j.rpc.channel.RxChannel;

/**
 * Binds an {@link RxChannel}'s counts ({@link RxChannel#stats()}; docs/embedding.md "Channels") to Micrometer meters,
 * tagged {@code service} (the Rx service id) and the tags given here; the per-address ones also {@code address}
 * ({@code host:port}, IPv6 as {@code [host]:port}):
 * <ul>
 *   <li>{@value #CALLS}, {@value #RETRIES}, {@value #RETRIES_REFUSED}: function counters of the channel's calls, the
 *       repeats it made and the repeats its retry budget refused;</li>
 *   <li>{@value #ATTEMPTS}, {@value #FAILURES}, {@value #EJECTIONS}: function counters per address of the attempts
 *       started on it, those that failed at the connection level (−1, or the server's −10 or −100) and the times it
 *       was ejected;</li>
 *   <li>{@value #OUTSTANDING}: a gauge per address of the attempts running on it; {@value #EJECTED}: a gauge per
 *       address, 1 while it is ejected (or being re-probed), else 0.</li>
 * </ul>
 * A channel's addresses are fixed when it opens, so every meter is registered by {@link #bindTo} and none needs a
 * refresh; each reads the channel's live counts when the registry asks (held weakly, as Micrometer's function meters
 * do). Thread-safe.
 */
public final class RxChannelMetrics implements MeterBinder {
    /** Meter name of the channel's calls counter. */
    public static final String CALLS = "rx.channel.calls";
    /** Meter name of the channel's repeats counter. */
    public static final String RETRIES = "rx.channel.retries";
    /** Meter name of the counter of repeats the retry budget refused. */
    public static final String RETRIES_REFUSED = "rx.channel.retries.refused";
    /** Meter name of the per-address attempts counter. */
    public static final String ATTEMPTS = "rx.channel.attempts";
    /** Meter name of the per-address connection-level failures counter. */
    public static final String FAILURES = "rx.channel.failures";
    /** Meter name of the per-address ejections counter. */
    public static final String EJECTIONS = "rx.channel.ejections";
    /** Meter name of the per-address outstanding-attempts gauge. */
    public static final String OUTSTANDING = "rx.channel.outstanding";
    /** Meter name of the per-address ejected gauge (0 or 1). */
    public static final String EJECTED = "rx.channel.ejected";

    private final RxChannel channel;
    private final Tags tags;

    /**
     * @param channel the channel whose counts to bind
     * @param tags tags added to every meter (e.g. {@code Tags.of("channel", "vl")})
     */
    public RxChannelMetrics(RxChannel channel, Iterable<Tag> tags) {
        this.channel = Objects.requireNonNull(channel, "channel");
        this.tags = Tags.of(tags).and("service", Integer.toString(channel.serviceId()));
    }

    /**
     * Registers every meter above in {@code registry}.
     *
     * @param registry the registry
     */
    @Override
    public void bindTo(MeterRegistry registry) {
        FunctionCounter.builder(CALLS, channel, c -> c.stats().calls()).tags(tags)
                .description("calls started on the Rx channel").register(registry);
        FunctionCounter.builder(RETRIES, channel, c -> c.stats().retries()).tags(tags)
                .description("repeats the Rx channel made").register(registry);
        FunctionCounter.builder(RETRIES_REFUSED, channel, c -> c.stats().retriesRefused()).tags(tags)
                .description("repeats the Rx channel's retry budget refused").register(registry);
        List<InetSocketAddress> servers = channel.servers();
        for (int i = 0; i < servers.size(); i++) {
            int index = i;
            Tags t = tags.and("address", address(servers.get(i)));
            counter(registry, ATTEMPTS, t, "attempts started on the address", c -> at(c, index).attempts());
            counter(registry, FAILURES, t, "attempts that failed at the connection level",
                    c -> at(c, index).failures());
            counter(registry, EJECTIONS, t, "times the address was ejected", c -> at(c, index).ejections());
            Gauge.builder(OUTSTANDING, channel, c -> at(c, index).outstanding()).tags(t)
                    .description("attempts running on the address").register(registry);
            Gauge.builder(EJECTED, channel, c -> at(c, index).state() == RxChannel.AddressState.SERVING ? 0 : 1)
                    .tags(t).description("1 while the address is ejected or being re-probed").register(registry);
        }
    }

    private void counter(MeterRegistry registry, String name, Tags t, String description,
                         ToDoubleFunction<RxChannel> read) {
        FunctionCounter.builder(name, channel, read).tags(t).description(description).register(registry);
    }

    private static RxChannel.AddressStats at(RxChannel c, int index) {
        return c.stats().addresses().get(index);
    }

    /**
     * @param a a resolved address
     * @return {@code host:port}, IPv6 as {@code [host]:port}
     */
    static String address(InetSocketAddress a) {
        String host = a.getAddress().getHostAddress();
        return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + a.getPort();
    }
}
