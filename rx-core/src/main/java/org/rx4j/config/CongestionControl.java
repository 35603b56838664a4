// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.config;

/**
 * Which congestion controller a call's sender runs (chosen per endpoint in {@link RxConfig}).
 *
 * <p>The engine maps each value to its implementation in {@code org.rx4j.engine.cc}.
 */
public enum CongestionControl {
    /** Loss-based NewReno: slow start, congestion avoidance, fast recovery (RFC 5681, RFC 6582). The default. */
    NEWRENO,
    /**
     * Model-based, BBR-class (draft-ietf-ccwg-bbr): paces at the estimated bottleneck bandwidth and keeps about two
     * bandwidth-delay products in flight; random loss below 2% per round trip is not read as congestion. One model
     * per peer, shared by all calls to it.
     */
    BBR,
    /** No congestion control: the window is always the transmit window (twind); for tests and clean links. */
    FIXED_WINDOW
}
