// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine.pmtu;

import org.rx4j.wire.AckPacket;
import org.rx4j.wire.AckReason;
import org.rx4j.wire.RxConstants;

/**
 * One call's outstanding probe ladder: PINGs padded to a few sizes, sent largest first in one burst, and what their
 * PING_RESPONSEs say about the path (docs/engine.md "Path MTU below one full packet"). A downward ladder (packets
 * lost) sets the peer's path limit to the largest size answered; an upward one (re-growth) raises it. A new ladder
 * replaces the outstanding one; answers to an older one are ignored. Runs on the engine's thread.
 */
final class ProbeLadder {
    /**
     * Packet sizes (Rx header included, bytes) a ladder tries below its first size, largest first. 1232 is an IPv6
     * path of the minimum MTU (1280 − 40 − 8), 576 and 520 IPv4's minimum and Rx's smallest packet (§5).
     */
    static final int[] STEPS = {8192, 4096, 2048, 1444, 1400, 1360, 1320, 1280, 1240, 1232, 1200, 1150, 1100,
        1050, 1000, 900, 800, 700, 600, 576, 520};

    private final int[] sizes = new int[STEPS.length + 2];
    /** Probes in the outstanding ladder (0: none sent yet), the first one's serial, and when it went out, ns. */
    private int count;
    private int firstSerial;
    private long sentNs;
    /** Probes of the ladder's first size (the failing or usual one) at its start: 2 for a full downward ladder. */
    private int tops;
    /** True for a downward ladder (packets lost), false for an upward one (re-growth, verification). */
    private boolean down;
    /** Largest size of the outstanding ladder answered so far, bytes (0 for none). */
    private int best;
    /** The peer's path limit before the outstanding ladder, bytes. */
    private int limitBefore;

    /**
     * Sends a ladder: a PING padded to {@code top} bytes (two for a full downward ladder, so one lost probe does not
     * pass for the path's verdict on a lossy path) and, with {@code steps}, one padded to each {@link #STEPS} size
     * below it: down to 520 bytes for a downward ladder, down to just above {@code limit} for an upward one.
     *
     * @param now current time, ns
     * @param down true for a downward ladder (packets lost), false for an upward one
     * @param top the first probe's size, bytes (Rx header included)
     * @param steps true to add the smaller steps
     * @param limit the peer's path limit now, bytes ({@link Integer#MAX_VALUE} for none)
     * @param probes sends each probe
     */
    void send(long now, boolean down, int top, boolean steps, int limit, ProbeSender probes) {
        int floor = down ? RxConstants.MIN_PACKET_SIZE - 1 : limit;
        int n = 0;
        sizes[n++] = top;
        if (down && steps) {
            sizes[n++] = top;
        }
        tops = n;
        if (steps) {
            for (int step : STEPS) {
                if (step < top && step > floor) {
                    sizes[n++] = step;
                }
            }
        }
        count = n;
        this.down = down;
        best = 0;
        limitBefore = limit;
        sentNs = now;
        for (int i = 0; i < n; i++) {
            int serial = probes.send(now, sizes[i]);
            if (i == 0) {
                firstSerial = serial;
            }
        }
    }

    /**
     * An ACK arrived: when it is the PING_RESPONSE to one of this ladder's probes, the probe's size passed the path.
     * The peer verified that size; a downward ladder lowers the path limit to the largest size answered (unless the
     * failing size itself was: then the loss was not the path's, and the limit is what it was), an upward one raises
     * it (lifts it when the usual size passed).
     *
     * @param now current time, ns
     * @param a the ACK (not consumed)
     * @param state the peer's path state, updated
     * @return true when {@code a} answered a probe of this ladder
     */
    boolean onAnswer(long now, AckPacket a, PathMtuState state) {
        int i = a.serial() - firstSerial;
        if (count == 0 || a.reason() != AckReason.PING_RESPONSE || i < 0 || i >= count) {
            return false;
        }
        int size = sizes[i];
        state.onVerified(size);
        if (down) {
            if (i < tops && count > tops) {
                // The failing size passed: loss, not the path's MTU; smaller answers change nothing.
                best = Integer.MAX_VALUE;
                state.restore(limitBefore);
            } else if (size > best) {
                // Largest first: the first answer is usually the largest that passed; a larger one arriving
                // later (reordered) raises it again.
                best = size;
                if (size < limitBefore) {
                    state.lowerTo(size, now);
                }
            }
        } else if (size > best) {
            best = size;
            state.raiseTo(size, i < tops);
        }
        return true;
    }

    /** @return when the outstanding ladder went out, ns (0 before any) */
    long sentNs() {
        return sentNs;
    }

    /**
     * @param now current time, ns
     * @param withinNs how far back to look, ns
     * @return true when a downward ladder went out less than {@code withinNs} ago
     */
    boolean downwardWithin(long now, long withinNs) {
        return down && count > 0 && now - sentNs < withinNs;
    }
}
