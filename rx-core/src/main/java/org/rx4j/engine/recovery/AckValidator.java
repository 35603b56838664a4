// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine.recovery;

import org.rx4j.wire.AckPacket;

/**
 * Checks one ACK's body against what the call actually transmitted before anything in it is believed
 * (docs/robustness.md "Rule: ACKs checked against what was transmitted"; rx-wire-facts.md §3): a receiver can only
 * describe packets it could have received, so an ACK whose firstPacket is 0, whose firstPacket lies beyond the next seq
 * never transmitted or more than 2^30 seqs behind it (where wrap-safe seq comparison stops meaning anything; found by
 * the stateful fuzzer), whose soft-ack array reaches past the highest seq transmitted, or whose soft-ack entries are
 * neither 0 (NACK) nor 1 (ACK) is hostile or broken and is dropped whole. Pure function of the ACK and the
 * {@link SendQueue}; no allocation.
 */
public final class AckValidator {
    /** {@link #check} result: the ACK is consistent with what was transmitted. */
    public static final int OK = 0;
    /** {@link #check} result: firstPacket is 0 (seqs start at 1). */
    public static final int FIRST_ZERO = 1;
    /** {@link #check} result: firstPacket lies beyond the highest seq transmitted + 1. */
    public static final int FIRST_BEYOND_SENT = 2;
    /** {@link #check} result: the soft-ack array describes seqs never transmitted. */
    public static final int ACKS_BEYOND_SENT = 3;
    /** {@link #check} result: a soft-ack entry is neither 0 nor 1. */
    public static final int BAD_ACK_BYTE = 4;
    /** {@link #check} result: firstPacket lies more than {@link #MAX_BEHIND} seqs behind what was transmitted. */
    public static final int FIRST_FAR_BEHIND = 5;
    /**
     * How far behind the next seq to transmit a firstPacket may lie, seqs: 2^30, far beyond any stale ACK of a real
     * call and well short of 2^31, where "behind" and "ahead" become the same wrap-safe comparison.
     */
    public static final int MAX_BEHIND = 1 << 30;

    private AckValidator() {
    }

    /**
     * @param a the ACK (not consumed)
     * @param sq the call's send queue: {@link SendQueue#nextToSend()} is one past the highest seq transmitted
     * @return {@link #OK} or the first reason the ACK is out of range
     */
    public static int check(AckPacket a, SendQueue sq) {
        int first = a.firstPacket();
        if (first == 0) {
            return FIRST_ZERO;
        }
        int sentEnd = sq.nextToSend();
        if (first - sentEnd > 0) {
            return FIRST_BEYOND_SENT;
        }
        if (sentEnd - first > MAX_BEHIND || sentEnd - first < 0) {
            return FIRST_FAR_BEHIND;
        }
        int n = a.nAcks();
        // Entries describe seqs first .. first+n-1, all of which must have been transmitted (wrap-safe).
        if (n > 0 && first + n - 1 - sentEnd >= 0) {
            return ACKS_BEYOND_SENT;
        }
        for (int i = 0; i < n; i++) {
            int b = a.ackByte(i);
            if (b != AckPacket.ACKED && b != AckPacket.NACKED) {
                return BAD_ACK_BYTE;
            }
        }
        return OK;
    }
}
