package org.rx4j.engine;

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
}
