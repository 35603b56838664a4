// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine.pmtu;

import org.rx4j.wire.AckReason;

/**
 * The large-packet probes one call has outstanding: a PING padded to the target size and, below it, to the common
 * sizes of wide paths in between, so that a path narrower than the route's interface (a tunnel, a relay with an MTU
 * cap, a 9,000-byte link behind a 65,536-byte loopback route) still proves the largest size it carries in one round
 * trip (docs/engine.md "Packet size", in the style of RFC 8899's probing). The largest answered size wins.
 */
final class LargeProbes {
    /**
     * Sizes probed below the target, bytes, when they lie above what is proven and at most three quarters of the
     * target (a step close to the target would prove little more than the default): Rx's historical largest packet
     * (16,384) and a 9,000-byte jumbo-frame link less IPv4 and UDP headers (8,972).
     */
    static final int[] STEPS = {16_384, 8_972};

    private final int[] serials = new int[1 + STEPS.length];
    private final int[] sizes = new int[1 + STEPS.length];
    private int count;

    /**
     * Sends the probes of one try: {@code target}, then each of {@link #STEPS} above {@code proven} and at most three
     * quarters of the target. Supersedes the previous try's probes.
     *
     * @param now current time, ns
     * @param target the largest packet worth probing for, bytes
     * @param proven the largest packet already proven, bytes
     * @param probes sends one padded PING
     * @return probes sent, 1..3
     */
    int send(long now, int target, int proven, ProbeSender probes) {
        count = 0;
        add(target, probes.send(now, target));
        for (int step : STEPS) {
            if (step <= target - target / 4 && step > proven) {
                add(step, probes.send(now, step));
            }
        }
        return count;
    }

    private void add(int size, int serial) {
        sizes[count] = size;
        serials[count] = serial;
        count++;
    }

    /**
     * @param reason the ACK's reason
     * @param serial the serial it acknowledges
     * @return the size of the outstanding probe it answers, bytes, or 0 when it answers none
     */
    int answered(int reason, int serial) {
        if (reason != AckReason.PING_RESPONSE || serial == 0) {
            return 0;
        }
        for (int i = 0; i < count; i++) {
            if (serials[i] == serial) {
                serials[i] = 0;
                return sizes[i];
            }
        }
        return 0;
    }
}
