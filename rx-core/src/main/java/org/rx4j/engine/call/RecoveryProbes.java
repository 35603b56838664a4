// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine.call;

import org.rx4j.config.RxConfig;
import org.rx4j.engine.recovery.RecoveryManager;
import org.rx4j.engine.recovery.SendQueue;

/**
 * The recovery probes of one call's sender. From a retransmission timeout until an ACK acknowledges something new, the
 * path is asked between the backed-off timeouts: one PING (an ACK packet of reason PING, REQUEST_ACK; about 60 bytes)
 * every {@link #intervalNs}. A loss burst that swallowed the retransmission or its ACK then costs probes rather than
 * doublings of the RTO: the first PING_RESPONSE to get through either acknowledges the data (the ACK was lost) or shows
 * the retransmission missing, and {@code LossDetector} then marks it lost again so it is resent at once. Data
 * retransmissions keep the RTO's doubling (rx-wire-facts.md §8; docs/robustness.md "Rule: faults": bounded, backed-off
 * resends); only the small probes keep a fixed pace (docs/engine.md "Recovery from a timeout"). Runs on the engine's
 * thread; times are ns on the engine's clock.
 */
public final class RecoveryProbes {
    /**
     * At most this many probes per dead time, so the probe interval is at least dead time / 48 (250 ms with the
     * default 12 s) and a silent peer gets at most 48 small PINGs from a call before it fails at the dead time.
     */
    public static final int PER_DEAD_TIME = 48;

    private final RxConfig config;
    private final CallOutput out;
    private final SendQueue sq;
    private final RecoveryManager recovery;
    /** When the next probe goes out (engine clock, ns), or NONE. */
    private long deadlineNs = Deadlines.NONE;

    RecoveryProbes(RxConfig config, CallOutput out, SendQueue sq, RecoveryManager recovery) {
        this.config = config;
        this.out = out;
        this.sq = sq;
        this.recovery = recovery;
    }

    /**
     * A retransmission timeout resent (or probed for) the data: the first probe follows one interval later.
     *
     * @param now current time, ns
     */
    void onTimeout(long now) {
        deadlineNs = now + intervalNs();
    }

    /**
     * The probe timer fired: says whether a probe is due now and schedules the next one. The sender sends it: a PING,
     * or, when packets larger than the path is known to carry wait for their re-cut, the path-MTU prober's PING of the
     * known size ({@code PathMtuProber.onRecoveryProbe}).
     *
     * @param now current time, ns
     * @return true when the caller sends a probe now; false when recovery is over (the timer stops)
     */
    boolean onTimer(long now) {
        if (!recovery.afterTimeout() || !sq.hasUnacked()) {
            deadlineNs = Deadlines.NONE;
            return false;
        }
        deadlineNs = now + intervalNs();
        return true;
    }

    /**
     * @return when the next probe goes out (engine clock, ns), or {@link Deadlines#NONE} when the sender is not
     *     recovering from a timeout
     */
    long deadlineNs() {
        return recovery.afterTimeout() ? deadlineNs : Deadlines.NONE;
    }

    /** Stops the probes (call teardown). */
    void cancel() {
        deadlineNs = Deadlines.NONE;
    }

    /**
     * @return the probe interval, ns: the peer's RTO without backoff (the path's own time scale), at least dead time
     *     / {@link #PER_DEAD_TIME}
     */
    private long intervalNs() {
        return Math.max(out.peer().rtt().baseRtoNs(), config.timeouts().deadTimeNs() / PER_DEAD_TIME);
    }
}
