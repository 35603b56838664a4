// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine.peer;

/**
 * The congestion state one peer's calls hand on to its next calls (OpenAFS keeps cwind and nDgramPackets per peer): the
 * congestion window, slow-start threshold and jumbo size the last calls learned, when the path last carried a call the
 * peer answered, and when a call last filled at least half that window (docs/engine.md "Carried state").
 *
 * <p>Rules: a new call starts from this state while the path was in use less than the idle bound ago, max(1 s, RTO);
 * after a longer idle it restarts from the initial window (RFC 5681 §4.1). A window no call has filled to half lately
 * was not validated (RFC 7661): it is halved for every idle bound since the last call that did (RFC 2861), never below
 * the initial window. A call starts at no more than the carried ssthresh, and slow-starts from there to 3/4 of the
 * carried window (after a loss the window above ssthresh was reached ACK by ACK, not sent as one burst). Every call the
 * peer answered hands its state on, short ones included: a call that saw congestion (its ssthresh or cwnd fell below
 * where it started) leaves its reduced state; one that did not keeps the larger of its own window and the carried one,
 * unless another call reduced the state since it started. Owned by the engine's thread; times are ns on the engine's
 * clock.
 */
public final class CarriedWindow {
    /** The shortest idle bound, ns: 1 s, RFC 6298's lower bound on the RTO. */
    static final long MIN_IDLE_BOUND_NS = 1_000_000_000L;

    /** Carried congestion window, packets; 0 = nothing carried yet. */
    private int cwnd;
    private int ssthresh;
    private int jumbo;
    /** When a call the peer answered last ended, ns. */
    private long usedAtNs;
    /** When a call last had at least half the carried window in flight, ns. */
    private long validatedAtNs;
    /** Counts reductions: a call that started before one never raises the window again. */
    private int generation;

    /** Where a new call starts: its window, threshold and jumbo size, and the state's generation at that moment. */
    public record Start(int cwnd, int ssthresh, int jumbo, boolean carried, int generation) {
    }

    /**
     * @param now current time, ns
     * @param rtoNs the peer's retransmission timeout now, ns
     * @param initialCwnd the configured initial window, packets
     * @param initialSsthresh the configured initial slow-start threshold, packets
     * @param mayCarry false to start from the initial values whatever is carried (a server call on a peer that has
     *     not proved its address)
     * @return the starting state of a new call
     */
    public Start start(long now, long rtoNs, int initialCwnd, int initialSsthresh, boolean mayCarry) {
        long bound = Math.max(MIN_IDLE_BOUND_NS, rtoNs);
        if (!mayCarry || cwnd == 0 || now - usedAtNs >= bound) {
            return new Start(initialCwnd, initialSsthresh, 1, false, generation);
        }
        long unvalidated = (now - validatedAtNs) / bound;
        int w = unvalidated >= 31 ? 0 : cwnd >> unvalidated;
        // Not a whole window above ssthresh at once: it left with no ACK clock and would land on the queue as one
        // burst. Slow start climbs back to 3/4 of it (RFC 2861's ssthresh on a reduced window).
        int startCwnd = Math.max(initialCwnd, Math.min(w, ssthresh));
        int startSsthresh = Math.max(2, Math.max(ssthresh, 3 * w / 4));
        return new Start(startCwnd, startSsthresh, jumbo, true, generation);
    }

    /**
     * A call ends: what it learned is handed on (see the class comment).
     *
     * @param now current time, ns
     * @param rtoNs the peer's retransmission timeout now, ns
     * @param start where the call started ({@link #start})
     * @param answered true when the peer answered during the call (an ACK or reply arrived)
     * @param endCwnd the call's congestion window at its end, packets
     * @param endSsthresh its slow-start threshold at its end, packets
     * @param endJumbo its jumbo size at its end, sub-packets
     * @param maxInFlight the most packets it had in flight at once
     */
    public void save(long now, long rtoNs, Start start, boolean answered, int endCwnd, int endSsthresh, int endJumbo,
            int maxInFlight) {
        if (!answered || maxInFlight == 0) {
            return;
        }
        boolean reduced = endSsthresh < start.ssthresh() || endCwnd < start.cwnd();
        boolean stale = cwnd == 0 || now - usedAtNs >= Math.max(MIN_IDLE_BOUND_NS, rtoNs);
        if (reduced || stale) {
            cwnd = endCwnd;
            ssthresh = endSsthresh;
            jumbo = endJumbo;
            generation += reduced ? 1 : 0;
        } else if (start.generation() == generation) {
            cwnd = Math.max(cwnd, endCwnd);
            ssthresh = Math.min(ssthresh, endSsthresh);
            jumbo = Math.max(jumbo, endJumbo);
        }
        if (reduced || stale || 2 * maxInFlight >= cwnd) {
            validatedAtNs = now;
        }
        usedAtNs = now;
    }

    /** @return the carried congestion window, packets (0 = none) */
    public int cwnd() {
        return cwnd;
    }

    /** @return the carried jumbo size, sub-packets (0 = none) */
    public int jumbo() {
        return jumbo;
    }
}
