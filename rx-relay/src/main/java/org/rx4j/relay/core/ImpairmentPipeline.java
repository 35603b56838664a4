// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.relay.core;

import java.util.Objects;
import java.util.SplittableRandom;

/**
 * The sans-I/O core of one direction: decides for each arriving datagram whether it is dropped (and why),
 * duplicated, and when each copy is released, and holds the copies until then. Time is an argument (ns from any
 * monotonic clock, non-decreasing between calls), so a test drives it on a virtual clock; the Netty shell calls
 * {@link #offer} on arrival and {@link #pollDue} when its timer fires at {@link #nextReleaseNs()}.
 *
 * <p>Per datagram, in this order: MTU cap ({@link DropReason#MTU}); random loss ({@link DropReason#LOSS});
 * Gilbert–Elliott loss ({@link DropReason#BURST_LOSS}); duplication. Then per copy: the relay's own memory bound
 * ({@link DropReason#RELAY_QUEUE}); the rate limiter's drop-tail queue ({@link DropReason#QUEUE}), which gives
 * the departure time (arrival time without a rate limit); release = departure + max(0, delay + U(-jitter,
 * +jitter)) [+ the reorder delay for a held-back copy]. Equal release times leave in arrival order.
 *
 * <p>Randomness: one {@link SplittableRandom} from the seed; the same seed, impairment and arrival sequence
 * (times and sizes) give the same decisions. One thread only.
 *
 * <p>Ownership: {@link #offer} takes ownership of the handle; dropped and cleared handles go to
 * {@link DatagramOps#discard}; {@link #pollDue} hands ownership to the caller.
 *
 * @param <T> the datagram handle
 */
public final class ImpairmentPipeline<T> {
    private final Impairment impairment;
    private final DatagramOps<T> ops;
    private final DirectionCounters counters;
    private final SplittableRandom random;
    private final GilbertElliott burst;
    private final RateLimiter limiter;
    private final long maxPendingBytes;
    private final DelayLine<T> line = new DelayLine<>();
    private long polledReleaseNs;
    private int polledBytes;

    /**
     * @param impairment what to do to the datagrams
     * @param seed seed of the random source
     * @param ops how to copy and dispose of handles
     * @param counters where to count (in, duplicated, reordered, drops)
     * @param maxPendingBytes the relay's own bound on bytes waiting (> 0); beyond it copies are dropped as
     *                        {@link DropReason#RELAY_QUEUE}
     */
    public ImpairmentPipeline(Impairment impairment, long seed, DatagramOps<T> ops, DirectionCounters counters,
                              long maxPendingBytes) {
        this.impairment = Objects.requireNonNull(impairment, "impairment");
        this.ops = Objects.requireNonNull(ops, "ops");
        this.counters = Objects.requireNonNull(counters, "counters");
        if (maxPendingBytes <= 0) {
            throw new IllegalArgumentException("maxPendingBytes must be > 0, got " + maxPendingBytes);
        }
        this.maxPendingBytes = maxPendingBytes;
        this.random = new SplittableRandom(seed);
        this.burst = impairment.burstLoss() == null ? null : new GilbertElliott(impairment.burstLoss());
        this.limiter = impairment.rateBitsPerSecond() == 0 ? null
                : new RateLimiter(impairment.rateBitsPerSecond(), impairment.queuePackets());
    }

    /** @return the impairment applied */
    public Impairment impairment() {
        return impairment;
    }

    /**
     * Takes an arriving datagram.
     *
     * @param nowNs arrival time, ns
     * @param datagram the handle (owned by the pipeline from now on)
     * @param bytes its UDP payload, bytes
     * @return the number of copies now waiting for release: 0 (dropped), 1, or 2 (duplicated)
     */
    public int offer(long nowNs, T datagram, int bytes) {
        counters.received(bytes);
        int mtu = impairment.mtuBytes();
        if (mtu != 0 && bytes > mtu) {
            return drop(datagram, DropReason.MTU);
        }
        double loss = impairment.lossProbability();
        if (loss != 0 && random.nextDouble() < loss) {
            return drop(datagram, DropReason.LOSS);
        }
        if (burst != null && burst.lose(random)) {
            return drop(datagram, DropReason.BURST_LOSS);
        }
        double dup = impairment.duplicateProbability();
        T copy = null;
        if (dup != 0 && random.nextDouble() < dup) {
            copy = ops.duplicate(datagram);
            counters.duplicated();
        }
        int waiting = admit(nowNs, datagram, bytes);
        if (copy != null) {
            waiting += admit(nowNs, copy, bytes);
        }
        return waiting;
    }

    private int admit(long nowNs, T datagram, int bytes) {
        if (line.bytes() + bytes > maxPendingBytes) {
            return drop(datagram, DropReason.RELAY_QUEUE);
        }
        long departure = nowNs;
        if (limiter != null) {
            departure = limiter.admit(nowNs, bytes);
            if (departure < 0) {
                return drop(datagram, DropReason.QUEUE);
            }
        }
        long delay = impairment.delayNs();
        long jitter = impairment.jitterNs();
        if (jitter != 0) {
            delay += Math.round((random.nextDouble() * 2 - 1) * jitter);
        }
        double reorder = impairment.reorderProbability();
        if (reorder != 0 && random.nextDouble() < reorder) {
            delay += impairment.reorderDelayNs();
            counters.reordered();
        }
        line.add(departure + Math.max(0, delay), datagram, bytes);
        return 1;
    }

    private int drop(T datagram, DropReason reason) {
        counters.dropped(reason);
        ops.discard(datagram);
        return 0;
    }

    /** @return the earliest release time waiting, ns, or {@link Long#MAX_VALUE} when none */
    public long nextReleaseNs() {
        return line.peekReleaseNs();
    }

    /**
     * Hands out the next datagram due at {@code nowNs}: the one with the earliest release time if that is
     * ≤ {@code nowNs}. Its release time and size are then available from {@link #polledReleaseNs()} and
     * {@link #polledBytes()}.
     *
     * @param nowNs the time, ns
     * @return the handle (now owned by the caller), or null if none is due
     */
    public T pollDue(long nowNs) {
        if (line.peekReleaseNs() > nowNs) {
            return null;
        }
        polledReleaseNs = line.peekReleaseNs();
        polledBytes = line.peekBytes();
        return line.poll();
    }

    /** @return the release time of the datagram last returned by {@link #pollDue}, ns */
    public long polledReleaseNs() {
        return polledReleaseNs;
    }

    /** @return the UDP payload of the datagram last returned by {@link #pollDue}, bytes */
    public int polledBytes() {
        return polledBytes;
    }

    /** @return datagrams waiting for release */
    public int pending() {
        return line.size();
    }

    /** @return bytes waiting for release */
    public long pendingBytes() {
        return line.bytes();
    }

    /** Discards every waiting datagram (shutdown); they are not counted as drops. */
    public void clear() {
        while (line.size() > 0) {
            ops.discard(line.poll());
        }
    }
}
