// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc.debug;

import org.rx4j.wire.RxStatistics;

/**
 * A server's answer to RXSTATS: struct rx_statistics, 71 counters (rx-wire-facts.md §9 and §13 give each index).
 * Immutable. The named methods read the counters rxdebug names; {@link #counter(int)} reads any of them.
 */
public final class RxStats {
    /** Packet types counted per type by {@link #packetsRead(int)} and {@link #packetsSent(int)}: 1..13. */
    public static final int PACKET_TYPES = RxStatistics.PACKET_TYPES;

    private final RxStatistics counters;

    RxStats(RxStatistics counters) {
        this.counters = counters;
    }

    /**
     * @param index 0..70, the counter's place in struct rx_statistics
     * @return that counter
     * @throws IndexOutOfBoundsException if index is outside 0..70
     */
    public int counter(int index) {
        return counters.value(index);
    }

    /** @return the 71 counters in wire order (a copy) */
    public int[] counters() {
        return counters.values();
    }

    /** @return packet allocation requests, count */
    public int packetRequests() {
        return counters.packetRequests();
    }

    /** @return receive packet allocation failures, count */
    public int receiveAllocFailures() {
        return counters.value(RxStatistics.RECEIVE_PKT_ALLOC_FAILURES);
    }

    /** @return send packet allocation failures, count */
    public int sendAllocFailures() {
        return counters.value(RxStatistics.SEND_PKT_ALLOC_FAILURES);
    }

    /** @return special (ack) packet allocation failures, count */
    public int specialAllocFailures() {
        return counters.value(RxStatistics.SPECIAL_PKT_ALLOC_FAILURES);
    }

    /**
     * @param type packet type 1..13
     * @return datagrams read of that type, count
     * @throws IndexOutOfBoundsException if type is outside 1..13
     */
    public int packetsRead(int type) {
        return counters.packetsRead(type);
    }

    /**
     * @param type packet type 1..13
     * @return datagrams sent of that type, count
     * @throws IndexOutOfBoundsException if type is outside 1..13
     */
    public int packetsSent(int type) {
        return counters.packetsSent(type);
    }

    /** @return unique DATA packets read, count */
    public int dataPacketsRead() {
        return counters.dataPacketsRead();
    }

    /** @return ACK packets read, count */
    public int ackPacketsRead() {
        return counters.ackPacketsRead();
    }

    /** @return duplicate DATA packets read, count */
    public int dupPacketsRead() {
        return counters.dupPacketsRead();
    }

    /** @return DATA packets that did not belong to a call, count */
    public int spuriousPacketsRead() {
        return counters.spuriousPacketsRead();
    }

    /** @return packets dropped because their call was dallying, count */
    public int ignorePacketDally() {
        return counters.ignorePacketDally();
    }

    /** @return ACKs sent, count */
    public int ackPacketsSent() {
        return counters.ackPacketsSent();
    }

    /** @return unique DATA packets sent, counting every jumbogram sub-packet, count */
    public int dataPacketsSent() {
        return counters.dataPacketsSent();
    }

    /** @return DATA retransmissions, count */
    public int dataPacketsReSent() {
        return counters.dataPacketsReSent();
    }

    /** @return retransmissions pushed early by a NACK, count */
    public int dataPacketsPushed() {
        return counters.dataPacketsPushed();
    }

    /** @return packets skipped by the sender because they were already acked, count */
    public int ignoreAckedPacket() {
        return counters.ignoreAckedPacket();
    }

    /** @return failed UDP sends, count */
    public int netSendFailures() {
        return counters.netSendFailures();
    }

    /** @return fatal errors, count */
    public int fatalErrors() {
        return counters.fatalErrors();
    }

    /** @return RTT samples taken, count */
    public int rttSamples() {
        return counters.nRttSamples();
    }

    /** @return the sum of all RTT samples, microseconds */
    public long totalRttMicros() {
        return counters.totalRttMicros();
    }

    /** @return the smallest RTT sample, microseconds */
    public long minRttMicros() {
        return counters.minRttMicros();
    }

    /** @return the largest RTT sample, microseconds */
    public long maxRttMicros() {
        return counters.maxRttMicros();
    }

    /** @return server connections, count */
    public int serverConnections() {
        return counters.nServerConns();
    }

    /** @return client connections, count */
    public int clientConnections() {
        return counters.nClientConns();
    }

    /** @return peer structs, count */
    public int peerStructs() {
        return counters.nPeerStructs();
    }

    /** @return call structs allocated, count */
    public int callStructs() {
        return counters.nCallStructs();
    }

    /** @return free call structs, count */
    public int freeCallStructs() {
        return counters.nFreeCallStructs();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RxStats s && s.counters.equals(counters);
    }

    @Override
    public int hashCode() {
        return counters.hashCode();
    }

    @Override
    public String toString() {
        return "RxStats" + java.util.Arrays.toString(counters.values());
    }
}
