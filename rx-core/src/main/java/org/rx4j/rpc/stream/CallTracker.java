// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc.stream;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.rx4j.rpc.RxCall;

/**
 * Counts what an endpoint's graceful close waits for: live calls (a call's listener was set and its
 * {@code onComplete} has not run yet, client and server side) and blocking handlers queued or running on
 * the worker pool. Also remembers the {@link CallStreams} whose buffers the application has not released
 * yet, so that closing the endpoint releases every buffer even when an application forgot an
 * {@link RxCall#close()}.
 *
 * <p>Thread-safe: the event loop ends calls, worker and application threads start and finish handlers and
 * calls, and the closing thread waits.
 */
public final class CallTracker {
    private final Object lock = new Object();
    private int liveCalls;
    private int handlers;
    private final Set<CallStreams> open = ConcurrentHashMap.newKeySet();

    /** A call got a listener of this endpoint; {@link #callEnded()} follows exactly once. */
    public void callStarted() {
        synchronized (lock) {
            liveCalls++;
        }
    }

    /** A call's {@code onComplete} ran (success or abort). */
    public void callEnded() {
        synchronized (lock) {
            liveCalls--;
            lock.notifyAll();
        }
    }

    /** A blocking handler was handed to the worker pool; {@link #handlerDone()} follows exactly once. */
    public void handlerQueued() {
        synchronized (lock) {
            handlers++;
        }
    }

    /** A blocking handler returned or threw, or the pool refused it. */
    public void handlerDone() {
        synchronized (lock) {
            handlers--;
            lock.notifyAll();
        }
    }

    /** @return live calls now */
    int liveCalls() {
        synchronized (lock) {
            return liveCalls;
        }
    }

    /** @return blocking handlers queued or running now */
    int handlers() {
        synchronized (lock) {
            return handlers;
        }
    }

    /** @return the live calls and handlers in words, for the close's log ("1 call and 2 handlers") */
    public String running() {
        synchronized (lock) {
            return count(liveCalls, "call") + " and " + count(handlers, "handler");
        }
    }

    /**
     * @param waitedMs how long the close waited for the handlers after cancelling their calls, ms
     * @return the close's WARN about the handlers still running, in the right number
     */
    public String handlersStillRunning(long waitedMs) {
        int n = handlers();
        return n == 1
                ? "1 handler still running " + waitedMs + " ms after its call was cancelled; interrupting it"
                : count(n, "handler") + " still running " + waitedMs
                        + " ms after their calls were cancelled; interrupting them";
    }

    private static String count(int n, String noun) {
        return n + " " + (n == 1 ? noun : noun + "s");
    }

    /**
     * Waits until no call is live and no handler is queued or running, or until the deadline.
     *
     * @param deadlineNanoTime absolute time on {@code clock} at which to give up, ns
     * @param clock the endpoint's clock, ns (checked after each wake-up)
     * @return true when idle, false when the deadline passed first (or the thread was interrupted; the
     *     interrupt status is kept)
     */
    public boolean awaitIdle(long deadlineNanoTime, java.util.function.LongSupplier clock) {
        synchronized (lock) {
            while (liveCalls > 0 || handlers > 0) {
                long left = deadlineNanoTime - clock.getAsLong();
                if (left <= 0) {
                    return false;
                }
                try {
                    TimeUnit.NANOSECONDS.timedWait(lock, left);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return false;
                }
            }
            return true;
        }
    }

    /** @param streams streams that may hold received buffers until the application releases them */
    public void opened(CallStreams streams) {
        open.add(streams);
    }

    /** @param streams streams whose buffers are released */
    public void released(CallStreams streams) {
        open.remove(streams);
    }

    /**
     * Releases the pooled buffers of every call the application did not release: what was received and not yet
     * read is copied to the heap for the reader, then reads fail with RX_USER_ABORT (−6) (or end cleanly after
     * a complete reply). Used when the endpoint closes.
     *
     * @return how many calls still held their streams
     */
    public int releaseAll() {
        List<CallStreams> left = new ArrayList<>(open);
        for (CallStreams s : left) {
            s.detachForClose();
        }
        return left.size();
    }
}
