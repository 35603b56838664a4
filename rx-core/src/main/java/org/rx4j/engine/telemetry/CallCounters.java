// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine.telemetry;

/**
 * Counters of one call, written by the engine's thread only (design.md "Counters without contention").
 */
public final class CallCounters {
    /** DATA packets sent, retransmissions included. */
    public long dataPacketsSent;
    /** DATA packets received (duplicates included). */
    public long dataPacketsReceived;
    /** DATA packets retransmitted. */
    public long resends;
    /** RTT samples this call contributed to its peer's estimator. */
    public long rttSamples;
    /**
     * Times transmitted packets were re-cut smaller after probes showed the path narrower than them (docs/engine.md
     * "Path MTU below one full packet"); re-cuts of never-transmitted packets are not counted.
     */
    public long recuts;
}
