// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.relay.core;

/**
 * The live counters of one direction; written by one thread (the pipeline's and the shell's), read through
 * {@link #snapshot(int)} on that same thread.
 */
public final class DirectionCounters {
    private final Direction direction;
    private long inDatagrams;
    private long inBytes;
    private long outDatagrams;
    private long outBytes;
    private long duplicated;
    private long reordered;
    private final long[] dropped = new long[DropReason.values().length];
    private long late;
    private long maxLateNs;

    /** @param direction the direction counted */
    public DirectionCounters(Direction direction) {
        this.direction = direction;
    }

    /** @return the direction counted */
    public Direction direction() {
        return direction;
    }

    /**
     * @param bytes payload of a received datagram, bytes
     */
    public void received(int bytes) {
        inDatagrams++;
        inBytes += bytes;
    }

    /**
     * @param bytes payload of a datagram handed to the outbound socket, bytes
     */
    public void sent(int bytes) {
        outDatagrams++;
        outBytes += bytes;
    }

    /** Counts one copy made by duplication. */
    public void duplicated() {
        duplicated++;
    }

    /** Counts one datagram held back for reordering. */
    public void reordered() {
        reordered++;
    }

    /**
     * @param reason why a datagram was dropped
     */
    public void dropped(DropReason reason) {
        dropped[reason.ordinal()]++;
    }

    /**
     * @param reason why datagrams were dropped
     * @param count how many, datagrams (≥ 0)
     */
    public void dropped(DropReason reason, long count) {
        dropped[reason.ordinal()] += count;
    }

    /**
     * Counts a datagram released too late.
     *
     * @param lateNs how long after its due time it was released, ns
     */
    public void late(long lateNs) {
        late++;
        maxLateNs = Math.max(maxLateNs, lateNs);
    }

    /**
     * @param pending datagrams waiting in the delay line now
     * @return an immutable copy of the counters
     */
    public DirectionStats snapshot(int pending) {
        return new DirectionStats(direction, inDatagrams, inBytes, outDatagrams, outBytes, duplicated, reordered,
                dropped, late, maxLateNs, pending);
    }
}
