// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine.cc;

import org.rx4j.wire.SequenceNumbers;

/**
 * Loss signal shared by the congestion controllers: counts consecutive ACKs with holes and tracks one fast-recovery
 * episode (entered after {@code nackThreshold} such ACKs, left by a clean ack that reaches the recovery point or by a
 * timeout). Window arithmetic is left to the controller. See rx-wire-facts.md §8 (rx_nackThreshold) and RFC 6582.
 */
final class FastRetransmitDetector {
    private final int nackThreshold;
    private int consecutiveNackedAcks;
    private boolean inRecovery;
    private int recoveryPoint;

    /**
     * @param nackThreshold consecutive ACKs with holes that start fast recovery, >= 1
     * @throws IllegalArgumentException if {@code nackThreshold < 1}
     */
    FastRetransmitDetector(int nackThreshold) {
        if (nackThreshold < 1) {
            throw new IllegalArgumentException("nackThreshold must be >= 1, got " + nackThreshold);
        }
        this.nackThreshold = nackThreshold;
    }

    /**
     * A clean ack: resets the hole count and ends recovery once {@code highestAckedSeq} reaches the recovery point.
     *
     * @return true when this ack ended recovery
     */
    boolean onCleanAck(int highestAckedSeq) {
        consecutiveNackedAcks = 0;
        if (inRecovery && SequenceNumbers.isAtOrAfter(highestAckedSeq, recoveryPoint)) {
            inRecovery = false;
            return true;
        }
        return false;
    }

    /** @return true when this ACK with holes starts fast recovery (never while already in recovery) */
    boolean onNackedAck(int highestSentSeq) {
        if (inRecovery) {
            return false;
        }
        consecutiveNackedAcks++;
        if (consecutiveNackedAcks < nackThreshold) {
            return false;
        }
        consecutiveNackedAcks = 0;
        inRecovery = true;
        recoveryPoint = highestSentSeq;
        return true;
    }

    /** A timeout: recovery ends and the hole count restarts. */
    void onTimeout() {
        consecutiveNackedAcks = 0;
        inRecovery = false;
    }

    boolean inRecovery() {
        return inRecovery;
    }

    /** @return the highest seq sent when recovery began; meaningful only while {@link #inRecovery()} */
    int recoveryPoint() {
        return recoveryPoint;
    }

    /** @return ACKs with holes seen in a row since the last clean ack, timeout or recovery entry */
    int consecutiveNackedAcks() {
        return consecutiveNackedAcks;
    }
}
