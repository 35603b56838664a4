package org.rx4j.engine;

import java.util.ArrayDeque;
import java.util.ArrayList;

/**
 * The engine's deferred work: application events (new call, readable, writable, complete) queued while
 * packets or timers are processed, and the calls touched meanwhile, whose pending ACK is flushed and whose
 * deadline is recomputed once processing ends. {@link #drain} delivers both until neither has work, so
 * listeners always run outside packet processing and each call sends at most one ACK per datagram.
 * Engine thread only.
 */
final class EventQueue {
    private static final int EV_NEW_CALL = 1;
    private static final int EV_READABLE = 2;
    private static final int EV_WRITABLE = 3;
    private static final int EV_COMPLETE = 4;

    private record Event(int kind, Call call, int code) {
    }

    private final RxEngine engine;
    private final TimerQueue timers;
    private final ArrayList<Call> dirty = new ArrayList<>();
    private final ArrayDeque<Object> events = new ArrayDeque<>();

    /**
     * @param engine the engine whose service handlers get new calls
     * @param timers the engine's timer queue, updated for every touched call
     */
    EventQueue(RxEngine engine, TimerQueue timers) {
        this.engine = engine;
        this.timers = timers;
    }

    /** A server call started: its service handler gets it (only queued when a handler exists). */
    void newCall(Call c) {
        events.add(new Event(EV_NEW_CALL, c, 0));
    }

    void readable(Call c) {
        events.add(new Event(EV_READABLE, c, 0));
    }

    void writable(Call c) {
        events.add(new Event(EV_WRITABLE, c, 0));
    }

    /** The call reached DALLY or ERROR with {@code code} (0 on success). */
    void complete(Call c, int code) {
        events.add(new Event(EV_COMPLETE, c, code));
    }

    /** Marks a call changed: its pending ACK is flushed and its deadline recomputed by the next drain. */
    void touched(Call c) {
        if (!c.dirty) {
            c.dirty = true;
            dirty.add(c);
        }
    }

    /**
     * Delivers queued events and settles touched calls until neither has work. ACKs are flushed at the
     * engine's latest time, read per call: a listener may move it while the queue drains.
     */
    void drain() {
        int guard = 0;
        while ((!events.isEmpty() || !dirty.isEmpty()) && guard++ < 1_000_000) {
            while (!events.isEmpty()) {
                Event e = (Event) events.poll();
                deliver(e);
            }
            for (int i = 0; i < dirty.size(); i++) {
                Call c = dirty.get(i);
                c.dirty = false;
                c.flushAck(engine.lastNow());
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
                ServiceHandler h = engine.service(c.conn);
                if (h != null && !c.isDone()) {
                    h.onNewCall(c);
                    if (c.isReadable() || c.isReadComplete()) {
                        c.listener().onReadable(c);
                    }
                }
            }
            case EV_READABLE -> {
                if (!c.isDone() && c.state != CallState.PRECALL) {
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
