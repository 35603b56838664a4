// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.relay.core;

import java.util.ArrayList;
import java.util.List;

/**
 * Test harness: one {@link ImpairmentPipeline} of sequence numbers on a virtual clock. Datagrams are offered at
 * chosen times; {@link #runUntil} advances the clock release by release and records what leaves and when.
 */
final class VirtualPath {
    /** A datagram that left: its sequence number and release time (ns). */
    record Release(int seq, long atNs) {
    }

    final DirectionCounters counters = new DirectionCounters(Direction.UPSTREAM);
    final List<Integer> discarded = new ArrayList<>();
    final List<Release> released = new ArrayList<>();
    final ImpairmentPipeline<Integer> pipeline;
    private long nowNs;

    VirtualPath(Impairment impairment, long seed) {
        this(impairment, seed, 1L << 30);
    }

    VirtualPath(Impairment impairment, long seed, long maxPendingBytes) {
        DatagramOps<Integer> ops = new DatagramOps<>() {
            @Override
            public Integer duplicate(Integer d) {
                return d;
            }

            @Override
            public void discard(Integer d) {
                discarded.add(d);
            }
        };
        pipeline = new ImpairmentPipeline<>(impairment, seed, ops, counters, maxPendingBytes);
    }

    /** Advances to {@code atNs} (releasing what falls due on the way), then offers datagram {@code seq}. */
    int offer(long atNs, int seq, int bytes) {
        runUntil(atNs);
        return pipeline.offer(atNs, seq, bytes);
    }

    /** Releases, in order and at their own times, every datagram due by {@code untilNs}. */
    void runUntil(long untilNs) {
        while (pipeline.nextReleaseNs() <= untilNs) {
            nowNs = Math.max(nowNs, pipeline.nextReleaseNs());
            Integer d = pipeline.pollDue(nowNs);
            released.add(new Release(d, pipeline.polledReleaseNs()));
        }
        nowNs = Math.max(nowNs, untilNs);
    }

    void drain() {
        runUntil(Long.MAX_VALUE - 1);
    }

    DirectionStats stats() {
        return counters.snapshot(pipeline.pending());
    }

    static long ms(double ms) {
        return Math.round(ms * 1e6);
    }
}
