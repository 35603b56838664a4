// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc.pool;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.rx4j.rpc.RxConnection;
import org.rx4j.rpc.channel.RxConnectionPool;
import org.rx4j.rpc.errors.RxCodes;
import org.rx4j.rpc.errors.RxException;
import org.rx4j.rpc.runtime.HandlerFailures;

/**
 * The connections of one {@link RxConnectionPool} and the calls each runs (docs/embedding.md "Pools"): picks the
 * least busy connection for a call, opens another while every open one has all 4 channels busy and the bound allows,
 * and closes connections idle for the idle time. Counts are the pool's own (a call counts from its start until its
 * end is seen), so the choice needs no trip to the event loop. Thread-safe; a connection is opened and closed
 * outside the lock, since opening waits for the event loop and calls end on it.
 */
public final class PoolMembers {
    /** One pooled connection and its calls in progress; fields guarded by the owning {@link PoolMembers}. */
    public static final class Member {
        public final RxConnection connection;
        int busy;
        /** When {@link #busy} last fell to 0, ns on the pool's clock. */
        long idleSince;
        /** Taken out of the pool (the server refused it): closed when its last call ends. */
        boolean dropped;

        Member(RxConnection connection) {
            this.connection = connection;
        }
    }

    private final int max;
    private final long idleNs;
    private final LongSupplier clock;
    private final Supplier<RxConnection> opener;
    private final BooleanSupplier mayWait;
    private final List<Member> members = new ArrayList<>();
    /** Connections being opened outside the lock: they count against {@link #max}. */
    private int opening;
    private int peak;
    private long opened;
    private long closedIdle;
    /** Connections taken out because the server refused them. */
    private long dropped;
    private boolean closed;

    /**
     * @param max most connections open (and being opened) at once
     * @param idleNs how long a connection without calls is kept, ns
     * @param clock the clock idle time is measured on, ns
     * @param opener opens a connection (may wait for the event loop; never called under the lock)
     * @param mayWait whether the calling thread may wait for a connection another thread opens (false on the event
     *     loop)
     */
    public PoolMembers(int max, long idleNs, LongSupplier clock, Supplier<RxConnection> opener, BooleanSupplier mayWait) {
        this.max = max;
        this.idleNs = idleNs;
        this.clock = clock;
        this.opener = opener;
        this.mayWait = mayWait;
    }

    /**
     * Takes a connection for one call (call {@link #release} when the call ended): the least busy one with a free
     * channel, else a new one while the bound allows, else one another caller is opening, else the least busy one
     * (the call waits there for a channel).
     * Closes connections idle past the idle time first.
     *
     * @return the member whose connection runs the call
     * @throws RxException RX_INVALID_OPERATION (−2) if the pool is closed, or was interrupted waiting for a
     *     connection being opened, or on the event loop while every allowed connection is still being opened
     * @throws RuntimeException what opening a connection throws (IllegalStateException: the endpoint is closing)
     */
    public Member acquire() throws RxException {
        List<RxConnection> idle = new ArrayList<>();
        try {
            synchronized (this) {
                while (true) {
                    checkOpen();
                    evictLocked(clock.getAsLong(), idle);
                    Member least = leastBusy();
                    boolean full = least == null || least.busy >= RxConnection.MAX_CALLS;
                    if (full && members.size() + opening < max) {
                        opening++;
                        break;
                    }
                    // A connection being opened will have free channels: wait for it rather than queue the call
                    // behind a busy one, except on the event loop, which the opening itself needs.
                    if (least != null && (!full || opening == 0 || !mayWait.getAsBoolean())) {
                        least.busy++;
                        return least;
                    }
                    if (!mayWait.getAsBoolean()) { // every allowed connection is being opened through this loop
                        throw RxException.local(RxCodes.RX_INVALID_OPERATION,
                                "no pooled connection yet: the others are being opened");
                    }
                    try {
                        wait();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw RxException.local(RxCodes.RX_INVALID_OPERATION, "interrupted waiting for a connection");
                    }
                }
            }
        } finally {
            idle.forEach(RxConnection::close);
        }
        return open();
    }

    private Member open() throws RxException {
        RxConnection connection;
        try {
            connection = opener.get();
        } catch (RuntimeException e) {
            synchronized (this) {
                opening--;
                notifyAll();
            }
            throw e;
        }
        synchronized (this) {
            opening--;
            notifyAll();
            if (!closed) {
                Member m = new Member(connection);
                m.busy = 1;
                members.add(m);
                opened++;
                peak = Math.max(peak, members.size());
                return m;
            }
        }
        connection.close();
        throw closedPool();
    }

    /**
     * Ends one call of {@code m} (taken by {@link #acquire()}); a connection left without calls starts its idle time.
     *
     * @param m the member
     */
    public void release(Member m) {
        release(m, null);
    }

    /**
     * Ends one call of {@code m} that may have failed. A call that failed because the server refused the connection
     * ({@link RxException.Reason#REFUSED}: its security class refused the handshake, e.g. RXKADBADTICKET or
     * RXKADEXPIRED) takes the connection out of the pool, so no later call is given it; it is closed once its last
     * call ended, and the next call opens a new one (which authenticates afresh).
     *
     * @param m the member
     * @param failure what the call failed with (possibly wrapped), or null
     */
    public void release(Member m, Throwable failure) {
        boolean close;
        synchronized (this) {
            if (isRefusal(failure) && !m.dropped) {
                m.dropped = true;
                members.remove(m);
                dropped++;
            }
            if (--m.busy == 0) {
                m.idleSince = clock.getAsLong();
            }
            close = m.dropped && m.busy == 0;
        }
        if (close) {
            m.connection.close();
        }
    }

    private static boolean isRefusal(Throwable failure) {
        return failure != null && HandlerFailures.unwrap(failure) instanceof RxException rx
                && rx.reason() == RxException.Reason.REFUSED;
    }

    /**
     * Closes the connections without calls for at least the idle time (their close sends nothing: no call runs).
     *
     * @return how many were closed
     */
    public int evictIdle() {
        List<RxConnection> idle = new ArrayList<>();
        synchronized (this) {
            evictLocked(clock.getAsLong(), idle);
        }
        idle.forEach(RxConnection::close);
        return idle.size();
    }

    private void evictLocked(long now, List<RxConnection> out) {
        for (int i = members.size() - 1; i >= 0; i--) {
            Member m = members.get(i);
            if (m.busy == 0 && now - m.idleSince >= idleNs) {
                members.remove(i);
                out.add(m.connection);
                closedIdle++;
            }
        }
    }

    private Member leastBusy() {
        Member least = null;
        for (Member m : members) {
            if (least == null || m.busy < least.busy) {
                least = m;
            }
        }
        return least;
    }

    private void checkOpen() throws RxException {
        if (closed) {
            throw closedPool();
        }
    }

    private static RxException closedPool() {
        return RxException.local(RxCodes.RX_INVALID_OPERATION, RxException.Reason.CONNECTION_CLOSED,
                "connection closed (its pool was closed)", null);
    }

    /** Closes every connection (their unfinished calls are aborted with RX_USER_ABORT −6); later acquires fail. */
    public void close() {
        List<Member> all;
        synchronized (this) {
            closed = true;
            all = new ArrayList<>(members);
            members.clear();
            notifyAll();
        }
        all.forEach(m -> m.connection.close());
    }

    /** @return connections open now */
    public synchronized int size() {
        return members.size();
    }

    /** @return calls running or waiting for a channel now, over all connections */
    public synchronized int busyCalls() {
        int n = 0;
        for (Member m : members) {
            n += m.busy;
        }
        return n;
    }

    /** @return most connections open at once so far */
    public synchronized int peak() {
        return peak;
    }

    /** @return connections opened so far */
    public synchronized long opened() {
        return opened;
    }

    /** @return connections closed for idleness so far */
    public synchronized long closedIdle() {
        return closedIdle;
    }

    /** @return connections taken out of the pool because the server refused them, so far */
    public synchronized long refused() {
        return dropped;
    }
}
