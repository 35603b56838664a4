// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.relay;

import io.netty.channel.EventLoop;
import io.netty.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * One event-loop timer kept at the earliest release time of either direction: re-armed only when a new datagram
 * is due earlier than the pending timer (with a constant delay, release times only grow, so arrivals never touch
 * it). Netty's epoll loop backs short timers with timerfd (ns resolution). Loop thread only.
 */
final class ReleaseTimer {
    private final EventLoop loop;
    private final Runnable onFire;
    private ScheduledFuture<?> timer;
    private long deadlineNs = Long.MAX_VALUE;

    /**
     * @param loop the relay's loop
     * @param onFire run on the loop when the timer fires (it re-arms through {@link #arm})
     */
    ReleaseTimer(EventLoop loop, Runnable onFire) {
        this.loop = loop;
        this.onFire = onFire;
    }

    /**
     * Makes sure the timer fires by {@code nextNs}.
     *
     * @param nextNs the earliest release time waiting, ns ({@link Long#MAX_VALUE}: nothing waits)
     * @param nowNs the time, ns (same clock)
     */
    void arm(long nextNs, long nowNs) {
        if (nextNs == Long.MAX_VALUE) {
            return;
        }
        if (timer != null) {
            if (deadlineNs <= nextNs) {
                return;
            }
            timer.cancel(false);
        }
        deadlineNs = nextNs;
        timer = loop.schedule(this::fire, nextNs - nowNs, TimeUnit.NANOSECONDS);
    }

    private void fire() {
        timer = null;
        deadlineNs = Long.MAX_VALUE;
        onFire.run();
    }

    /** Cancels the pending timer (shutdown). */
    void cancel() {
        if (timer != null) {
            timer.cancel(false);
            timer = null;
        }
        deadlineNs = Long.MAX_VALUE;
    }
}
