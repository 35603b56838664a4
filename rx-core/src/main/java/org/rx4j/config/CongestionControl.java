package org.rx4j.config;

/**
 * Which congestion controller a call's sender runs (chosen per endpoint in {@link RxConfig}).
 *
 * <p>The engine maps each value to its implementation in {@code org.rx4j.engine.cc}.
 */
public enum CongestionControl {
    /** Loss-based NewReno: slow start, congestion avoidance, fast recovery (RFC 5681, RFC 6582). The default. */
    NEWRENO,
    /** No congestion control: the window is always the transmit window (twind); for tests and clean links. */
    FIXED_WINDOW
}
