// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine;

import org.rx4j.config.RxConfig;
import org.rx4j.engine.admission.ReachChallenger;
import org.rx4j.engine.admission.SecurityHandshake;
import org.rx4j.engine.call.Call;
import org.rx4j.engine.call.Deadlines;
import org.rx4j.engine.connection.ConnectionTable;
import org.rx4j.engine.telemetry.RxCounters;

/**
 * The engine's timed work: the calls' timers that are due (retransmissions, delayed acks, keepalive and reachability
 * pings, dead/idle/hard-dead checks), the expiry of reachability-challenge records, the security classes' CHALLENGE
 * resends ({@link SecurityHandshake#run}), and the reaper, which every
 * {@code RxConfig.reaping().reapIntervalNs()} removes idle server connections and unused peers
 * ({@link ConnectionTable#reap}); and the earliest time any of it has work. Engine thread only; runs inside an
 * engine entry point (between {@link EventQueue#enter()} and {@link EventQueue#exit(long)}).
 */
final class EngineTimers {
    /** A call timer that did not move past {@code now} is re-armed this much later, ns: the loop never spins. */
    private static final long STUCK_TIMER_DELAY_NS = 1_000_000;
    /** Most call timers run in one pass (a guard against a timer that keeps firing). */
    private static final int MAX_TIMERS_PER_PASS = 1_000_000;

    private final RxConfig config;
    private final TimerQueue timers;
    private final EventQueue events;
    private final ReachChallenger challenger;
    private final ConnectionTable table;
    private final RxCounters endpointCounters;
    private final SecurityHandshake handshake;
    private long nextReapNs;

    /**
     * @param config the reap interval and idle times
     * @param timers the calls' deadlines
     * @param events where each call whose timer ran is touched (its ACK flushed, its deadline moved)
     * @param challenger the reachability challenge, whose records expire
     * @param table the tables the reaper prunes
     * @param endpointCounters where reaped connections' counters go
     * @param handshake the security classes' CHALLENGEs, resent on time
     * @param now current time, ns: the first reaper pass is one interval later
     */
    EngineTimers(RxConfig config, TimerQueue timers, EventQueue events, ReachChallenger challenger,
            ConnectionTable table, RxCounters endpointCounters, SecurityHandshake handshake, long now) {
        this.config = config;
        this.timers = timers;
        this.events = events;
        this.challenger = challenger;
        this.table = table;
        this.endpointCounters = endpointCounters;
        this.handshake = handshake;
        this.nextReapNs = now + config.reaping().reapIntervalNs();
    }

    /** @return the earliest time, ns, at which {@link #run} has work; {@link Deadlines#NONE} for none */
    long nextDeadline() {
        return Deadlines.earlier(Deadlines.earlier(Deadlines.earlier(timers.earliest(), nextReapNs),
                challenger.nextExpiryNs()), handshake.nextDeadline());
    }

    /**
     * Runs everything due at {@code now}.
     *
     * @param now current time, ns
     */
    void run(long now) {
        int guard = 0;
        while (timers.size() > 0 && now - timers.earliest() >= 0 && guard++ < MAX_TIMERS_PER_PASS) {
            Call c = timers.peek();
            c.onTimer(now);
            c.updateDeadline();
            if (c.deadlineNs != Deadlines.NONE && now - c.deadlineNs >= 0) {
                c.deadlineNs = now + STUCK_TIMER_DELAY_NS; // never spin on a timer that did not move
            }
            timers.update(c);
            events.touched(c, now);
        }
        challenger.expire(now);
        handshake.run(now);
        if (now - nextReapNs >= 0) {
            table.reap(now, endpointCounters);
            nextReapNs = now + config.reaping().reapIntervalNs();
        }
    }
}
