// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.transport;

import io.netty.channel.SelectStrategy;
import io.netty.channel.SelectStrategyFactory;
import io.netty.util.IntSupplier;
import java.util.function.LongSupplier;

/**
 * How a transport's event loop waits when it has nothing to do (docs/transport.md "Idle spin"): after an exchange in
 * which it wrote small datagrams only (at most {@link #SMALL_WRITE_BYTES}: requests, replies and ACKs of short calls)
 * and read none larger than {@link #SMALL_READ_BYTES} (a short call's message, or one OpenAFS-sized jumbogram of a
 * transfer this loop receives), it polls its socket without sleeping, yielding the CPU between polls, for up to
 * {@code spinNs}, and only then blocks in the kernel; after a larger datagram in either direction (a transfer's DATA,
 * or a GSO run or GRO read of them) it polls for at most {@link #TRANSFER_SPIN_NS}. A short call's reply (or, on a
 * server, a client's next request) and a sender's next jumbogram after an ACK usually arrive within tens of
 * microseconds; caught by a spinning loop they cost no sleep and no wake-up. A transfer's next ACK or DATA often
 * arrives as soon, but a loop that spun the whole {@code spinNs} after each burst would take the CPU its peer and its
 * JIT need, while a woken loop waits for a CPU (on a small machine, until the thread that woke it gives up its own):
 * the short spin catches the quick answers and leaves the CPU soon after.
 *
 * <p>The spin is counted from when the loop ran out of work. One instance serves one event loop (one transport): the
 * decoder reports each datagram read to {@link #read(int)}, the encoder each one written to {@link #written(int)},
 * and Netty asks {@link #calculateStrategy} before each wait, all on that loop. With {@code spinNs} 0 the loop always
 * blocks, as Netty's default strategy does.
 */
final class IdleSpin implements SelectStrategy, SelectStrategyFactory {
    /** Largest datagram written, bytes, after which the loop spins: a short call's message or an ACK, not DATA. */
    static final int SMALL_WRITE_BYTES = 1024;
    /**
     * Largest datagram read, bytes, after which the loop spins its whole spin: OpenAFS's jumbograms (4 packets of
     * 1,412 bytes, 5,688 bytes) fit, rx4j's larger packets and jumbograms between rx4j peers do not.
     */
    static final int SMALL_READ_BYTES = 8192;
    /**
     * Longest spin after an exchange with a datagram larger than the small limits (a transfer's DATA either way), ns,
     * and never longer than {@code spinNs}: long enough for the next ACK or DATA of a transfer on a fast path (tens of
     * microseconds on loopback), short enough to leave the CPU to the peer and the JIT between bursts
     * (docs/transport.md "Idle spin").
     */
    static final long TRANSFER_SPIN_NS = 100_000;

    private final long spinNs;
    private final LongSupplier clock;
    private final Runnable yield;
    /** Largest datagram read since the loop last ran out of work, bytes; 0 = none. */
    private int largestReadSinceIdle;
    /** Largest datagram written since the loop last ran out of work, bytes; 0 = none. */
    private int largestWrittenSinceIdle;
    /**
     * When this spin ends, ns on {@link #clock}: from when the loop ran out of work, {@code spinNs} later, or at most
     * {@link #TRANSFER_SPIN_NS} after a transfer's datagrams.
     */
    private long spinEnd;
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
     * A datagram of {@code bytes} was read on this loop. Loop only.
     *
     * @param bytes its UDP payload, bytes
     */
    void read(int bytes) {
        largestReadSinceIdle = Math.max(largestReadSinceIdle, bytes);
    }

    /**
     * A datagram of {@code bytes} was written on this loop (a GSO run counts as its whole buffer). Loop only.
     *
     * @param bytes its UDP payload, bytes
     */
    void written(int bytes) {
        largestWrittenSinceIdle = Math.max(largestWrittenSinceIdle, bytes);
    }

    /** @return this strategy: one per loop, and the transport's group has one loop */
    @Override
    public SelectStrategy newSelectStrategy() {
        return this;
    }

    /**
     * Netty's question before each wait: polls the socket once ({@code selectSupplier}, which does not block); with
     * ready events or queued tasks the loop handles them; idle within the spin ({@code spinNs} after small datagrams
     * only, at most {@link #TRANSFER_SPIN_NS} after a larger one), the loop goes round again ({@link #CONTINUE});
     * otherwise (no datagram moved since the last spin, or the spin over) it blocks ({@link #SELECT}).
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
            spinning = false;
            return ready;
        }
        if (!spinning) {
            // Only after datagrams moved: a timer tick or a task alone is not an exchange awaiting an answer.
            boolean moved = largestReadSinceIdle > 0 || largestWrittenSinceIdle > 0;
            boolean small = largestReadSinceIdle <= SMALL_READ_BYTES && largestWrittenSinceIdle <= SMALL_WRITE_BYTES;
            largestReadSinceIdle = 0;
            largestWrittenSinceIdle = 0;
            if (!moved) {
                return SELECT;
            }
            // Counted from here, not from the wake-up before the work: a loop whose handling took long (cold
            // code, a CPU taken by the peer) still waits its whole spin for the answer.
            spinEnd = now + (small ? spinNs : Math.min(spinNs, TRANSFER_SPIN_NS));
            spinning = true;
        }
        if (now - spinEnd < 0) {
            yield.run();
            return CONTINUE;
        }
        spinning = false;
        return SELECT;
    }
}
