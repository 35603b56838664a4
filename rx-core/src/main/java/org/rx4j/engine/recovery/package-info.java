// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

/**
 * Loss detection and recovery for one call's sender, after the split of Kwik's RttEstimator / LossDetector /
 * RecoveryManager: the {@link org.rx4j.engine.recovery.SendQueue} of sent packets, the
 * {@link org.rx4j.engine.recovery.AckValidator} that checks an ACK's range against what was transmitted, the
 * {@link org.rx4j.engine.recovery.LossDetector} that reads each ACK against the queue (hard and soft acks, holes, RTT
 * samples), the {@link org.rx4j.engine.recovery.RecoveryManager} that turns that into congestion-control calls, fast
 * retransmits and the retransmission timer, and the per-peer {@link org.rx4j.engine.recovery.RttEstimator}.
 * Pure state, no clock, no threads, no Netty channels; every time is a {@code long} in nanoseconds passed in by the
 * caller. Depends on {@code org.rx4j.engine.cc} and the wire codec only, never on the engine package above it.
 * See rx-wire-facts.md §3 and §8.
 */
package org.rx4j.engine.recovery;
