// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.relay.core;

import java.util.Arrays;

/**
 * A snapshot of one direction's counters. {@code in + duplicated = out + Σ dropped + pending} once the direction
 * is quiet, with two exceptions: {@link DropReason#RELAY_RECEIVE} counts datagrams the kernel dropped before the
 * relay received them (so they are not in {@code in}), and an out datagram whose write later failed is counted in
 * both {@code out} and {@link DropReason#RELAY_SOCKET}.
 *
 * @param direction which direction
 * @param inDatagrams datagrams received from the sender
 * @param inBytes their UDP payload, bytes
 * @param outDatagrams datagrams handed to the outbound socket
 * @param outBytes their UDP payload, bytes
 * @param duplicated extra copies made by duplication
 * @param reordered datagrams held back for reordering
 * @param dropped drops per reason, indexed by {@link DropReason#ordinal()}
 * @param late datagrams released later than the lateness threshold after their due time
 * @param maxLateNs largest lateness seen, ns
 * @param pending datagrams waiting in the delay line when the snapshot was taken
 */
public record DirectionStats(Direction direction, long inDatagrams, long inBytes, long outDatagrams, long outBytes,
                             long duplicated, long reordered, long[] dropped, long late, long maxLateNs,
                             int pending) {
    /**
     * Copies {@code dropped} so the snapshot stays immutable.
     *
     * @param direction which direction
     * @param inDatagrams datagrams received
     * @param inBytes their UDP payload, bytes
     * @param outDatagrams datagrams handed to the outbound socket
     * @param outBytes their UDP payload, bytes
     * @param duplicated extra copies made
     * @param reordered datagrams held back
     * @param dropped drops per reason, by ordinal (copied)
     * @param late late releases
     * @param maxLateNs largest lateness, ns
     * @param pending datagrams waiting
     */
    public DirectionStats {
        dropped = dropped.clone();
    }

    /**
     * @param reason the reason
     * @return datagrams dropped for {@code reason}
     */
    public long dropped(DropReason reason) {
        return dropped[reason.ordinal()];
    }

    /** @return datagrams dropped for every reason */
    public long droppedTotal() {
        return Arrays.stream(dropped).sum();
    }

    /** @return datagrams dropped for the relay's own reasons ({@link DropReason#isRelayOwn()}) */
    public long droppedByRelay() {
        long n = 0;
        for (DropReason r : DropReason.values()) {
            if (r.isRelayOwn()) {
                n += dropped[r.ordinal()];
            }
        }
        return n;
    }

    /** @return e.g. {@code up: in 1000 (1444000 B) out 990 (1429560 B) dup 0 late 0 drop loss 10} */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder();
        sb.append(direction.label()).append(": in ").append(inDatagrams).append(" (").append(inBytes)
                .append(" B) out ").append(outDatagrams).append(" (").append(outBytes).append(" B)");
        if (duplicated != 0) {
            sb.append(" dup ").append(duplicated);
        }
        if (reordered != 0) {
            sb.append(" reordered ").append(reordered);
        }
        if (late != 0) {
            sb.append(" late ").append(late).append(" (max ")
                    .append(Impairment.ms(maxLateNs)).append(" ms)");
        }
        for (DropReason r : DropReason.values()) {
            if (dropped[r.ordinal()] != 0) {
                sb.append(" drop ").append(r.label()).append(' ').append(dropped[r.ordinal()]);
            }
        }
        if (pending != 0) {
            sb.append(" pending ").append(pending);
        }
        return sb.toString();
    }
}
