package org.rx4j.engine;

import java.util.ArrayDeque;
import java.util.ArrayList;

/**
 * The engine's deferred work: application events (new call, readable, writable, complete) queued while
 * packets or timers are processed, and the calls touched meanwhile, whose pending ACK is flushed and whose
 * deadline is recomputed once processing ends. {@link #drain} delivers both until neither has work, so
 * listeners always run outside packet processing and each call sends at most one ACK per datagram.
 *
 * <p>Every engine entry point runs between one {@link #enter()} and {@link #exit(long)}: the outermost exit
 * drains at the {@code now} of that entry point (time only enters as an argument). A call touched while no
 * entry point runs (an application call outside any callback) drains at once, at the {@code now} it came with.
 * Engine thread only.
 */
final class EventQueue {
    private static final int EV_NEW_CALL = 1;
    private static final int EV_READABLE = 2;
    private static final int EV_WRITABLE = 3;
    private static final int EV_COMPLETE = 4;

    private record Event(int kind, Call call, int code, ServiceHandler handler) {
    }

    private final TimerQueue timers;
    private final ArrayList<Call> dirty = new ArrayList<>();
    private final ArrayDeque<Object> events = new ArrayDeque<>();

    /** Entry points running (nested: a listener may call back into the engine); 1 while draining. */
    private int depth;

    /** @param timers the engine's timer queue, updated for every touched call */
    EventQueue(TimerQueue timers) {
        this.timers = timers;
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
        events.add(new Event(EV_NEW_CALL, c, 0, handler));
    }

    void readable(Call c) {
        events.add(new Event(EV_READABLE, c, 0, null));
    }

    void writable(Call c) {
        events.add(new Event(EV_WRITABLE, c, 0, null));
    }

    /** The call reached DALLY or ERROR (its error code, 0 on success, goes to the listener). */
    void complete(Call c) {
        events.add(new Event(EV_COMPLETE, c, c.error(), null));
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
        while ((!events.isEmpty() || !dirty.isEmpty()) && guard++ < 1_000_000) {
            while (!events.isEmpty()) {
                Event e = (Event) events.poll();
                deliver(e);
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

    private void deliver(Event e) {
        Call c = e.call();
        CallListener l = c.listener();
        switch (e.kind()) {
            case EV_NEW_CALL -> {
                ServiceHandler h = e.handler();
                if (!c.isDone()) {
                    h.onNewCall(c);
                    if (c.isReadable() || c.isReadComplete()) {
                        c.listener().onReadable(c);
                    }
                }
            }
            case EV_READABLE -> {
                if (!c.isDone() && c.state() != CallState.PRECALL) {
                    l.onReadable(c);
                }
            }
            case EV_WRITABLE -> {
                if (!c.isDone()) {
                    l.onWritable(c);
                }
            }
            case EV_COMPLETE -> l.onComplete(c, e.code());
            default -> throw new IllegalStateException("event " + e.kind());
        }
    }
}
