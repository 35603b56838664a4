// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine;

import java.util.ArrayList;
import org.rx4j.counters.RxCounter;
import org.rx4j.engine.call.Call;
import org.rx4j.engine.call.CallListener;
import org.rx4j.engine.call.CallState;
import org.rx4j.engine.telemetry.RxCounters;
import org.rx4j.wire.AbortCodes;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The engine's deferred work: application events (new call, readable, writable, complete) queued while
 * packets or timers are processed, and the calls touched meanwhile, whose pending ACK is flushed and whose
 * deadline is recomputed once processing ends. {@link #drain} delivers both until neither has work, so
 * listeners always run outside packet processing and each call sends at most one ACK per datagram.
 *
 * <p>Every engine entry point runs between one {@link #enter()} and {@link #exit(long)}: the outermost exit
 * drains at the {@code now} of that entry point (time only enters as an argument; readable events pass it on to the
 * listener). A call touched while no entry point runs (an application call outside any callback) drains at once,
 * at the {@code now} it came with.
 * Engine thread only.
 */
final class EventQueue {
    private static final int EV_NEW_CALL = 1;
    private static final int EV_READABLE = 2;
    private static final int EV_WRITABLE = 3;
    private static final int EV_COMPLETE = 4;
    private static final int EV_STALLED = 5;
    private static final int EV_FIRST_ACK = 6;
    private static final Logger log = LoggerFactory.getLogger(EventQueue.class);

    private final TimerQueue timers;
    /** Where a listener's failure is counted ({@link RxCounter#LISTENER_FAILURES}). */
    private final RxCounters counters;
    private final ArrayList<Call> dirty = new ArrayList<>();
    // The queued events as a ring of parallel arrays (kind, call, code, handler), grown by doubling: no object per
    // event on the data path (docs/benchmarks.md "Allocation per packet").
    private int[] kinds = new int[16];
    private Call[] calls = new Call[16];
    private int[] codes = new int[16];
    private ServiceHandler[] handlers = new ServiceHandler[16];
    private int head;
    private int count;

    /** Entry points running (nested: a listener may call back into the engine); 1 while draining. */
    private int depth;

    /**
     * @param timers the engine's timer queue, updated for every touched call
     * @param counters the endpoint's counters: a listener that throws is counted there
     */
    EventQueue(TimerQueue timers, RxCounters counters) {
        this.timers = timers;
        this.counters = counters;
    }

    /** An engine entry point starts: deferred work waits for the outermost {@link #exit}. */
    void enter() {
        depth++;
    }

    /**
     * An engine entry point ends; the outermost one drains the deferred work.
     *
     * @param now the entry point's time, ns: ACKs flushed by the drain are sent at it
     */
    void exit(long now) {
        if (--depth == 0) {
            drain(now);
        }
    }

    /**
     * A server call started: {@code handler} gets it.
     *
     * @param c the call
     * @param handler its service's handler
     */
    void newCall(Call c, ServiceHandler handler) {
        add(EV_NEW_CALL, c, 0, handler);
    }

    void readable(Call c) {
        add(EV_READABLE, c, 0, null);
    }

    void writable(Call c) {
        add(EV_WRITABLE, c, 0, null);
    }

    /** A client call stalled ({@link CallListener#onStall}). */
    void stalled(Call c) {
        add(EV_STALLED, c, 0, null);
    }

    /** The peer acknowledged the call's data for the first time ({@link CallListener#onFirstAck}). */
    void firstAck(Call c) {
        add(EV_FIRST_ACK, c, 0, null);
    }

    /** The call reached DALLY or ERROR (its error code, 0 on success, goes to the listener). */
    void complete(Call c) {
        add(EV_COMPLETE, c, c.error(), null);
    }

    private void add(int kind, Call c, int code, ServiceHandler handler) {
        if (count == kinds.length) {
            grow();
        }
        int i = (head + count) & (kinds.length - 1);
        kinds[i] = kind;
        calls[i] = c;
        codes[i] = code;
        handlers[i] = handler;
        count++;
    }

    private void grow() {
        int n = kinds.length;
        int[] k = new int[2 * n];
        Call[] c = new Call[2 * n];
        int[] e = new int[2 * n];
        ServiceHandler[] h = new ServiceHandler[2 * n];
        for (int j = 0; j < count; j++) {
            int i = (head + j) & (n - 1);
            k[j] = kinds[i];
            c[j] = calls[i];
            e[j] = codes[i];
            h[j] = handlers[i];
        }
        kinds = k;
        calls = c;
        codes = e;
        handlers = h;
        head = 0;
    }

    /**
     * Marks a call changed: its pending ACK is flushed and its deadline recomputed by the next drain, which
     * runs at once when no entry point is running.
     *
     * @param c the call
     * @param now current time, ns (used only when draining at once)
     */
    void touched(Call c, long now) {
        if (!c.dirty) {
            c.dirty = true;
            dirty.add(c);
        }
        if (depth == 0) {
            drain(now);
        }
    }

    /**
     * Delivers what is queued at once when no entry point is running: an application's own task on the loop (a
     * reader pulling the last packet out of a call, which ends it) must not leave the call's completion waiting for
     * the next datagram or timer tick. Inside an entry point its end delivers them.
     *
     * @param now current time, ns
     */
    void settleOutsideEntryPoint(long now) {
        if (depth == 0 && (count > 0 || !dirty.isEmpty())) {
            drain(now);
        }
    }

    /**
     * Delivers queued events and settles touched calls until neither has work; ACKs are flushed at {@code now}.
     *
     * @param now the time of the entry point that drains, ns
     */
    private void drain(long now) {
        depth++;
        try {
            drainAll(now);
        } finally {
            depth--;
        }
    }

    private void drainAll(long now) {
        int guard = 0;
        while ((count > 0 || !dirty.isEmpty()) && guard++ < 1_000_000) {
            while (count > 0) {
                int i = head;
                int kind = kinds[i];
                Call c = calls[i];
                int code = codes[i];
                ServiceHandler handler = handlers[i];
                calls[i] = null;
                handlers[i] = null;
                head = (head + 1) & (kinds.length - 1);
                count--;
                try {
                    deliver(kind, c, code, handler, now);
                } catch (RuntimeException e) {
                    listenerFailed(kind, c, now, e);
                } finally {
                    if (kind == EV_COMPLETE) {
                        // The call ends once and a done call gets no other event: let go of the application's
                        // listener, so a finished call that stays on its channel does not keep the rpc layer's state
                        // reachable.
                        c.setListener(null);
                    }
                }
            }
            for (int i = 0; i < dirty.size(); i++) {
                Call c = dirty.get(i);
                c.dirty = false;
                c.flushAck(now);
                c.updateDeadline();
                timers.update(c);
            }
            dirty.clear();
        }
    }

    /**
     * A listener (or a service's handler) threw on an event: it is counted and its call aborted with
     * RX_INVALID_OPERATION (−2), so that the call's end still reaches the listener and the peer, and the events queued
     * after it are delivered as if nothing had happened: one failing listener never holds up another call.
     */
    private void listenerFailed(int kind, Call c, long now, RuntimeException e) {
        counters.increment(RxCounter.LISTENER_FAILURES);
        log.debug("rx4j call listener failed on event {}; aborting the call", kind, e);
        if (!c.isDone()) {
            c.abort(now, AbortCodes.RX_INVALID_OPERATION);
        }
    }

    private void deliver(int kind, Call c, int code, ServiceHandler h, long now) {
        CallListener l = c.listener();
        switch (kind) {
            case EV_NEW_CALL -> {
                if (!c.isDone()) {
                    h.onNewCall(c);
                    c.deliver(now);
                }
            }
            case EV_READABLE -> {
                if (!c.isDone() && c.state() != CallState.PRECALL) {
                    c.deliver(now);
                }
            }
            case EV_WRITABLE -> {
                if (!c.isDone()) {
                    l.onWritable(c);
                }
            }
            case EV_STALLED -> {
                if (!c.isDone()) {
                    l.onStall(c, now);
                }
            }
            case EV_FIRST_ACK -> {
                if (!c.isDone()) {
                    l.onFirstAck(c, now);
                }
            }
            case EV_COMPLETE -> l.onComplete(c, code);
            default -> throw new IllegalStateException("event " + kind);
        }
    }
}
