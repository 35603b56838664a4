// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine.cc;

/**
 * What the congestion controllers of all calls to one peer share (the engine's {@code Peer} owns one): the path's
 * {@link DeliveryRate} (delivered/lost counts, packets in flight of all calls together) and, once a BBR call has run,
 * the path's {@link BbrModel}. A model per peer rather than per call means {@code -t 8} to one peer runs one model
 * with one pacer, not eight that fight over the bottleneck. Not thread-safe (the engine's thread).
 */
public final class PathModel {
    private final DeliveryRate rate = new DeliveryRate();
    private final long seed;
    private BbrModel bbr;
    private int sharingCalls;

    /** @param seed seeds the model's randomized probing times (e.g. a hash of the peer's address) */
    public PathModel(long seed) {
        this.seed = seed;
    }

    /** @return the path's delivery-rate estimator */
    public DeliveryRate rate() {
        return rate;
    }

    /**
     * @param initialCwnd the window to start from when the model is new, packets, >= 1
     * @return the path's BBR model, created on first use
     */
    public BbrModel bbr(int initialCwnd) {
        if (bbr == null) {
            bbr = new BbrModel(rate, initialCwnd, seed);
        }
        return bbr;
    }

    /** A call's controller starts using the path's shared window. */
    void join() {
        sharingCalls++;
    }

    /** A call's controller stops using the path's shared window. */
    void leave() {
        sharingCalls = Math.max(0, sharingCalls - 1);
    }

    /** @return calls currently sharing the path's window, >= 0 */
    public int sharingCalls() {
        return sharingCalls;
    }

    /** @return the path's BBR model, or null when no BBR call has run to this peer */
    public BbrModel bbrOrNull() {
        return bbr;
    }
}
