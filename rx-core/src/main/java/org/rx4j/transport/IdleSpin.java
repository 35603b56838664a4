// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.transport;

import io.netty.channel.SelectStrategy;
import io.netty.channel.SelectStrategyFactory;
import io.netty.util.IntSupplier;
import java.util.function.IntConsumer;
import java.util.function.LongSupplier;

/**
 * How a transport's event loop waits when it has nothing to do (docs/transport.md "Idle spin"): after an exchange of
 * small datagrams only, it polls its socket without sleeping, yielding the CPU between polls, for up to
 * {@code spinNs}, and only then blocks in the kernel; after a datagram larger than {@link #SMALL_DATAGRAM_BYTES} in
 * either direction it blocks at once. A short call's reply (or, on a server, a client's next request) usually arrives
 * within tens of microseconds; caught by a spinning loop it costs no sleep and no wake-up, about half of a short
 * call's round trip on loopback. A bulk transfer moves full-size packets and gains nothing from spinning: its loop
 * wakes for several datagrams at a time, and a spinning loop would take the CPU its peer and its JIT need.
 *
 * <p>One instance serves one event loop (one transport): the decoder and encoder of the loop's channel report each
 * datagram's size to {@link #accept(int)} and Netty asks {@link #calculateStrategy} before each wait, all on that loop.
 * With {@code spinNs} 0 the loop always blocks, as Netty's default strategy does.
 */
final class IdleSpin implements SelectStrategy, SelectStrategyFactory, IntConsumer {
    /** Largest datagram, bytes, after which the loop spins: a short call's request or reply, not a bulk packet. */
    static final int SMALL_DATAGRAM_BYTES = 1024;

    private final long spinNs;
    private final LongSupplier clock;
    private final Runnable yield;
    /** Largest datagram read or written since the loop last ran out of work, bytes; 0 = none. */
    private int largestSinceIdle;
    /** When the loop last had I/O or tasks, ns on {@link #clock}. */
    private long lastBusy;
    /** True while the loop spins after its last work (the choice is made once per idle stretch). */
    private boolean spinning;

    /**
     * A loop on the system clock that yields the CPU between polls.
     *
     * @param spinNs longest spin after a small exchange, ns, &gt;= 0; 0 = never spin
     */
    IdleSpin(long spinNs) {
        this(spinNs, System::nanoTime, Thread::yield);
    }

    /**
     * @param spinNs longest spin after a small exchange, ns, &gt;= 0; 0 = never spin
     * @param clock monotonic ns
     * @param yield run between two polls of a spin (gives the CPU to other runnable threads)
     * @throws IllegalArgumentException if spinNs is negative
     */
    IdleSpin(long spinNs, LongSupplier clock, Runnable yield) {
        if (spinNs < 0) {
            throw new IllegalArgumentException("spinNs must be >= 0: " + spinNs);
        }
        this.spinNs = spinNs;
        this.clock = clock;
        this.yield = yield;
    }

    /**
     * A datagram of {@code bytes} was read or written on this loop. Loop only.
     *
     * @param bytes its UDP payload, bytes
     */
    @Override
    public void accept(int bytes) {
        if (bytes > largestSinceIdle) {
            largestSinceIdle = bytes;
        }
    }

    /** @return this strategy: one per loop, and the transport's group has one loop */
    @Override
    public SelectStrategy newSelectStrategy() {
        return this;
    }

    /**
     * Netty's question before each wait: polls the socket once ({@code selectSupplier}, which does not block); with
     * ready events or queued tasks the loop handles them; idle after small datagrams only and within the spin, the
     * loop goes round again ({@link #CONTINUE}); otherwise it blocks ({@link #SELECT}).
     *
     * @param selectSupplier polls the socket without blocking: ready events
     * @param hasTasks whether tasks are queued on the loop
     * @return the ready events (&gt; 0), 0 to run the tasks, CONTINUE to poll again, or SELECT to block
     * @throws Exception what the poll threw
     */
    @Override
    public int calculateStrategy(IntSupplier selectSupplier, boolean hasTasks) throws Exception {
        if (spinNs == 0) {
            return hasTasks ? selectSupplier.get() : SELECT;
        }
        int ready = selectSupplier.get();
        long now = clock.getAsLong();
        if (ready > 0 || hasTasks) {
            lastBusy = now;
            spinning = false;
            return ready;
        }
        if (!spinning) {
            // Only after datagrams moved: a timer tick or a task alone is not an exchange awaiting an answer.
            boolean small = largestSinceIdle > 0 && largestSinceIdle <= SMALL_DATAGRAM_BYTES;
            largestSinceIdle = 0;
            if (!small) {
                return SELECT;
            }
            spinning = true;
        }
        if (now - lastBusy < spinNs) {
            yield.run();
            return CONTINUE;
        }
        spinning = false;
        return SELECT;
    }
}
