// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.transport;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.SingleThreadEventLoop;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.ScheduledFuture;
import io.netty.util.concurrent.Ticker;
import java.util.ArrayDeque;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.LongSupplier;
import org.rx4j.engine.RxEngine;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Last inbound handler: feeds each {@link InboundDatagram} to {@link RxEngine#onDatagram}, runs work handed to
 * the engine ({@link #run}, {@link #call}), and keeps one event-loop timer at {@link RxEngine#nextDeadline()}
 * that calls {@link RxEngine#onTimer}. After every read burst (and every {@link #FLUSH_EVERY} datagrams inside one
 * without GRO), task and timer tick it flushes the {@link DatagramEncoder} once and re-arms the timer (design.md
 * "transport").
 *
 * <p>Time: every engine entry point gets {@code now} from one clock, by default the event loop's
 * {@link Ticker} ({@code ctx.executor().ticker()}, see {@link #clock}), so an {@code EmbeddedChannel} with
 * frozen or advanced time drives the engine's timers; the timer is scheduled on the same loop with the delay
 * {@code nextDeadline() - now}.
 *
 * <p>One instance per channel and engine, loop-confined. Owns the failure counters of the work it runs: a
 * datagram the engine threw on, a failed task, a failed timer tick, and socket errors (e.g. ICMP port
 * unreachable); none of these counts as a malformed datagram. No exception leaves this handler.
 *
 * <p>Ownership: the packets of an {@link InboundDatagram} pass to the engine, which keeps them even when it
 * throws; any other message reaching this handler is released.
 */
final class EngineHandler extends ChannelInboundHandlerAdapter {
    private static final Logger log = LoggerFactory.getLogger(EngineHandler.class);
    /**
     * Most datagrams fed to the engine before the output is flushed inside one read burst. A read burst may hold a
     * whole window (epoll's recvmmsg reads 8 datagrams a call; docs/transport.md "Reads per wake-up"): flushed
     * only at its end, the ACK the engine made after the burst's first packets waited for all of them, the sender
     * then sent its next window as one burst, and a window-limited transfer between two epoll endpoints ran at
     * ~60% of the rate (docs/benchmarks.md "Transports"). Every 4: the ACK leaves while the rest is read.
     * Not with GRO (see {@link #EngineHandler(RxEngine, DatagramEncoder, LongSupplier, int)}).
     */
    static final int FLUSH_EVERY = 4;
    /**
     * Most callbacks one unit of work runs at its end ({@link #runAtUnitEnd}); later ones are loop tasks, so that a
     * chain of completions that each start a call refused at once cannot hold the loop (its reads, timers and close)
     * inside one unit. A read burst's completions (up to 64 GRO segments) fit with room.
     */
    static final int UNIT_TAIL_MAX = 256;

    private final RxEngine engine;
    private final DatagramEncoder out;
    private final LongSupplier clock;
    /** Datagrams fed to the engine before a flush inside one read burst. */
    private final int flushEvery;
    /** Cached so re-arming the timer does not allocate a Runnable. */
    private final Runnable timerTask = this::onTimer;
    private ChannelHandlerContext ctx;
    private ScheduledFuture<?> timer;
    /** Run at the end of every unit of work, before the flush (see {@link #afterWorkHook}); null for none. */
    private Runnable afterWorkHook;
    /**
     * True while a datagram, a timer tick or a task is being handed to the engine: work handed over from inside it
     * (a server's reply from its handler, a completion's next call) runs at once and leaves the flush to the unit
     * that is running, so the replies to one read burst leave together instead of one flush (and one sendto) each.
     */
    private boolean inUnit;
    /**
     * Callbacks handed over while a unit of work runs ({@link #runAtUnitEnd}: an application's completion), run at
     * that unit's end. Loop only.
     */
    private final ArrayDeque<Runnable> unitTail = new ArrayDeque<>();
    /** Callbacks queued on the running unit's tail so far ({@link #UNIT_TAIL_MAX} at most). Loop only. */
    private int unitTailQueued;
    /**
     * The loop, when it runs work at the end of each of its iterations (Netty's {@code SingleThreadEventLoop}): a task's
     * flush waits there, so the tasks of one iteration (the completions of a read burst's calls, each starting the
     * next call) leave in one flush. Null on other executors (tests' embedded channel): each task flushes at its end.
     */
    private Consumer<Runnable> iterationTail;
    /** The end-of-iteration flush is queued ({@link #afterTask}). */
    private boolean afterWorkQueued;
    /** The handler left the pipeline (the channel closed): a queued end-of-iteration flush does nothing. */
    private boolean removed;
    private final Runnable queuedAfterWork = () -> {
        afterWorkQueued = false;
        if (!removed) {
            afterWork();
        }
    };
    private long timerDeadline = Long.MAX_VALUE;
    /** Datagrams fed to the engine since the output was last flushed. */
    private int datagramsSinceFlush;
    private long datagramFailures;
    private long taskFailures;
    private long timerFailures;
    private long socketErrors;

    /**
     * @param engine the engine, whose sink is {@code out}; touched only on the channel's loop from now on
     * @param out the channel's encoder, flushed after each unit of work
     * @param clock the engine's clock, ns; see {@link #clock}
     */
    EngineHandler(RxEngine engine, DatagramEncoder out, LongSupplier clock) {
        this(engine, out, clock, FLUSH_EVERY);
    }

    /**
     * A handler that flushes inside a read burst every {@code flushEvery} datagrams. With UDP GRO the transport
     * passes {@link Integer#MAX_VALUE}: a burst is then the datagrams of one read, already in memory (a GRO read holds
     * up to 64), or of a sending loop's few reads of ACKs (docs/transport.md "Reads per wake-up"), so flushing inside
     * it lets little leave sooner; flushed once at its end, the ACKs and the DATA they release leave
     * together, as one GSO send where they are of one size (docs/transport.md "Segmentation offload").
     *
     * @param engine the engine, whose sink is {@code out}; touched only on the channel's loop from now on
     * @param out the channel's encoder, flushed after each unit of work
     * @param clock the engine's clock, ns; see {@link #clock}
     * @param flushEvery datagrams fed to the engine before a flush inside one read burst, &gt;= 1
     */
    EngineHandler(RxEngine engine, DatagramEncoder out, LongSupplier clock, int flushEvery) {
        this.engine = engine;
        this.out = out;
        this.clock = clock;
        this.flushEvery = flushEvery;
    }

    /**
     * The clock a transport's engine runs on.
     *
     * @param loop the event loop that will run the engine (the handler's {@code ctx.executor()})
     * @param injected a clock chosen by the endpoint, ns, or null for the loop's ticker
     * @return {@code injected}, or the loop's {@link Ticker#nanoTime()} (Netty 4.2; a mock ticker under
     *     {@code EmbeddedChannel.freezeTime()/advanceTimeBy()})
     */
    static LongSupplier clock(EventExecutor loop, LongSupplier injected) {
        if (injected != null) {
            return injected;
        }
        Ticker ticker = loop.ticker();
        return ticker::nanoTime;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
        if (iterationTail == null && ctx.executor() instanceof SingleThreadEventLoop l) {
            iterationTail = l::executeAfterEventLoopIteration;
        }
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        removed = true;
        cancelTimer();
    }

    /** @return the engine's clock now, ns; any thread */
    long now() {
        return clock.getAsLong();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!(msg instanceof InboundDatagram d)) {
            ReferenceCountUtil.release(msg);
            return;
        }
        inUnit = true;
        try {
            // From here the engine owns the packets, also when it throws (e.g. a failing listener).
            engine.onDatagram(now(), d.sender(), d.packets());
        } catch (RuntimeException e) {
            datagramFailures++;
            log.debug("rx4j engine failed on a datagram from {}", d.sender(), e);
        } finally {
            runUnitTail();
            inUnit = false;
        }
        if (++datagramsSinceFlush >= flushEvery) {
            afterWork();
        }
    }

    /** A datagram that did not decode as Rx ({@link NotRxDatagram}): the engine counts it at its sender's peer. */
    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        if (evt instanceof NotRxDatagram n) {
            try {
                engine.onNotRx(now(), n.sender());
            } catch (RuntimeException e) {
                datagramFailures++;
                log.debug("rx4j engine failed on a non-Rx datagram from {}", n.sender(), e);
            }
            return;
        }
        ctx.fireUserEventTriggered(evt);
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        afterWork();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        // ICMP port unreachable and similar socket errors: count, keep the receive loop running.
        socketErrors++;
    }

    /**
     * Runs {@code work} on the engine now, then flushes and re-arms the timer at the end of the loop's iteration
     * (once for all the tasks that ran in it); called from inside a unit of work (a datagram, a timer tick or another
     * task being handled), it leaves both to that unit's end. Loop only.
     *
     * @param work the task; a RuntimeException it throws is logged and counted as a task failure, not rethrown
     */
    void run(Consumer<RxEngine> work) {
        boolean outer = !inUnit; // inside a unit, the running unit flushes at its end
        inUnit = true;
        try {
            work.accept(engine);
        } catch (RuntimeException e) {
            taskFailed(e);
        } finally {
            if (outer) {
                settle();
                runUnitTail();
                inUnit = false;
                afterTask();
            }
        }
    }

    /**
     * Queues {@code callback} to run at the end of the unit of work now running (a datagram, a timer tick or a
     * task), once the engine has returned from it: a reply's completion then starts the next call inside the read
     * that brought the reply, and that call's packets leave in the unit's flush, with no loop task in between
     * (docs/transport.md "Completions on the loop"). Loop only.
     *
     * @param callback the work (an application's completion); a RuntimeException it throws is counted as a task
     *     failure
     * @return false, and nothing queued, when no unit is running or this unit has queued {@link #UNIT_TAIL_MAX}
     */
    boolean runAtUnitEnd(Runnable callback) {
        if (!inUnit || unitTailQueued >= UNIT_TAIL_MAX) {
            return false;
        }
        unitTailQueued++;
        unitTail.add(callback);
        return true;
    }

    /**
     * Runs the callbacks queued during the unit, and those they queue in turn (a next call refused at once), each
     * round followed by the delivery of the engine events they left (a call they ended). Loop only, inside a unit.
     */
    private void runUnitTail() {
        while (!unitTail.isEmpty()) {
            Runnable r;
            while ((r = unitTail.poll()) != null) {
                try {
                    r.run();
                } catch (RuntimeException e) {
                    taskFailed(e);
                }
            }
            settle();
        }
        unitTailQueued = 0;
    }

    /** After an outer task: the events it left queued (a call it ended) are delivered now, not at the next tick. */
    private void settle() {
        try {
            engine.settle(now());
        } catch (RuntimeException e) {
            taskFailed(e);
        }
    }

    /** A task, or the delivery of what it left queued, threw: counted and logged, the loop goes on. */
    private void taskFailed(RuntimeException e) {
        taskFailures++;
        log.warn("rx4j task failed", e);
    }

    /**
     * Sets where the end-of-iteration flush is queued (tests stand in for the loop's end of iteration). Loop only,
     * before the first task.
     *
     * @param tail takes the work to run once the loop's current iteration has run its tasks
     */
    void endOfIteration(Consumer<Runnable> tail) {
        this.iterationTail = tail;
    }

    /**
     * A handed-over task ended: its output, hook and timer wait for the end of the loop's iteration, where one
     * {@link #afterWork} serves every task that ran in it; at once where the loop has no such end.
     */
    private void afterTask() {
        if (iterationTail == null) {
            afterWork();
        } else if (!afterWorkQueued) {
            afterWorkQueued = true;
            iterationTail.accept(queuedAfterWork);
        }
    }

    /**
     * Runs {@code work} on the engine now and completes {@code result} with its value or its exception (which
     * is the caller's to handle, so not counted), then flushes and re-arms the timer; from inside a unit of work,
     * that unit's end does both. Loop only.
     *
     * @param work the task
     * @param result completed before this method returns
     * @param <T> result type
     */
    <T> void call(Function<RxEngine, T> work, CompletableFuture<T> result) {
        boolean outer = !inUnit;
        inUnit = true;
        try {
            result.complete(work.apply(engine));
        } catch (RuntimeException e) {
            result.completeExceptionally(e);
        } finally {
            if (outer) {
                settle();
                runUnitTail();
                inUnit = false;
                afterWork();
            }
        }
    }

    /**
     * Sets the work run at the end of every read burst and timer tick, and once after the handed-over tasks of a loop
     * iteration, before the output is flushed; the RPC layer wakes application threads there once per burst instead
     * of once per packet. Loop only.
     *
     * @param hook the work, or null for none; a RuntimeException it throws is counted as a task failure
     */
    void afterWorkHook(Runnable hook) {
        this.afterWorkHook = hook;
    }

    /** Runs the after-work hook, flushes pending output and keeps one timer at the engine's next deadline. Loop only. */
    void afterWork() {
        datagramsSinceFlush = 0;
        Runnable hook = afterWorkHook;
        if (hook != null) {
            try {
                hook.run();
            } catch (RuntimeException e) {
                taskFailures++;
                log.warn("rx4j after-work hook failed", e);
            }
        }
        out.flushIfPending();
        long deadline = engine.nextDeadline();
        if (deadline == Long.MAX_VALUE || ctx == null) {
            return;
        }
        if (timer != null && timerDeadline - deadline <= 0 && !timer.isDone()) {
            return;
        }
        cancelTimer();
        timerDeadline = deadline;
        long delay = Math.max(0, deadline - now());
        timer = ctx.executor().schedule(timerTask, delay, TimeUnit.NANOSECONDS);
    }

    private void cancelTimer() {
        if (timer != null) {
            timer.cancel(false);
            timer = null;
        }
        timerDeadline = Long.MAX_VALUE;
    }

    private void onTimer() {
        timer = null;
        timerDeadline = Long.MAX_VALUE;
        inUnit = true;
        try {
            engine.onTimer(now());
        } catch (RuntimeException e) {
            timerFailures++;
            log.warn("rx4j timer failed", e);
        } finally {
            runUnitTail();
            inUnit = false;
            afterWork();
        }
    }

    /** @return datagrams on which {@link RxEngine#onDatagram} threw (loop only) */
    long datagramFailures() {
        return datagramFailures;
    }

    /** @return tasks handed over with {@link #run} that threw (loop only) */
    long taskFailures() {
        return taskFailures;
    }

    /** @return timer ticks on which {@link RxEngine#onTimer} threw (loop only) */
    long timerFailures() {
        return timerFailures;
    }

    /** @return socket errors the channel reported, e.g. ICMP port unreachable (loop only) */
    long socketErrors() {
        return socketErrors;
    }
}
