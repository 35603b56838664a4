// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.wire;

import io.netty.buffer.ByteBuf;
import java.util.Arrays;

/**
 * Body of an RXSTATS debug reply: struct rx_statistics as 71 big-endian int32 (284 bytes), see
 * rx-wire-facts.md §9 and §13 (indices checked against OpenAFS src/rx/rx.h and the rxdebug capture).
 *
 * <p>The counters stay an {@code int[71]} so that every word round-trips; the named accessors read the
 * indices below. Per-type arrays are indexed by packet type 1..13 (type 1 DATA at the array's first slot).
 * RTT values are (seconds, microseconds) pairs.
 *
 * @param values the 71 counters in wire order (copied)
 */
public record RxStatistics(int[] values) {
    /** Number of int32 counters. */
    public static final int WORDS = 71;
    /** Bytes of the struct on the wire. */
    public static final int SIZE = WORDS * 4;
    /** Packet types counted per type (RX_N_PACKET_TYPES). */
    public static final int PACKET_TYPES = 13;

    /** Index of packetRequests (packet allocations). */
    public static final int PACKET_REQUESTS = 0;
    /** Index of receivePktAllocFailures. */
    public static final int RECEIVE_PKT_ALLOC_FAILURES = 1;
    /** Index of sendPktAllocFailures. */
    public static final int SEND_PKT_ALLOC_FAILURES = 2;
    /** Index of specialPktAllocFailures. */
    public static final int SPECIAL_PKT_ALLOC_FAILURES = 3;
    /** Index of packetsRead[0] (type 1); packetsRead[type - 1] is at this + type - 1. */
    public static final int PACKETS_READ = 11;
    /** Index of dataPacketsRead (unique DATA packets read). */
    public static final int DATA_PACKETS_READ = 24;
    /** Index of ackPacketsRead. */
    public static final int ACK_PACKETS_READ = 25;
    /** Index of dupPacketsRead. */
    public static final int DUP_PACKETS_READ = 26;
    /** Index of spuriousPacketsRead. */
    public static final int SPURIOUS_PACKETS_READ = 27;
    /** Index of packetsSent[0] (type 1); datagrams, type 13 never counted by OpenAFS. */
    public static final int PACKETS_SENT = 28;
    /** Index of ackPacketsSent. */
    public static final int ACK_PACKETS_SENT = 41;
    /** Index of pingPacketsSent. */
    public static final int PING_PACKETS_SENT = 42;
    /** Index of abortPacketsSent. */
    public static final int ABORT_PACKETS_SENT = 43;
    /** Index of busyPacketsSent. */
    public static final int BUSY_PACKETS_SENT = 44;
    /** Index of dataPacketsSent (counts jumbogram sub-packets). */
    public static final int DATA_PACKETS_SENT = 45;
    /** Index of dataPacketsReSent. */
    public static final int DATA_PACKETS_RESENT = 46;
    /** Index of dataPacketsPushed. */
    public static final int DATA_PACKETS_PUSHED = 47;
    /** Index of ignoreAckedPacket. */
    public static final int IGNORE_ACKED_PACKET = 48;
    /** Index of totalRtt seconds (microseconds at +1). */
    public static final int TOTAL_RTT = 49;
    /** Index of minRtt seconds (microseconds at +1). */
    public static final int MIN_RTT = 51;
    /** Index of maxRtt seconds (microseconds at +1). */
    public static final int MAX_RTT = 53;
    /** Index of nRttSamples. */
    public static final int N_RTT_SAMPLES = 55;
    /** Index of nServerConns. */
    public static final int N_SERVER_CONNS = 56;
    /** Index of nClientConns. */
    public static final int N_CLIENT_CONNS = 57;
    /** Index of nPeerStructs. */
    public static final int N_PEER_STRUCTS = 58;
    /** Index of nCallStructs. */
    public static final int N_CALL_STRUCTS = 59;
    /** Index of nFreeCallStructs. */
    public static final int N_FREE_CALL_STRUCTS = 60;
    /** Index of netSendFailures. */
    public static final int NET_SEND_FAILURES = 61;
    /** Index of fatalErrors. */
    public static final int FATAL_ERRORS = 62;
    /** Index of ignorePacketDally (packets dropped for a dallying call). */
    public static final int IGNORE_PACKET_DALLY = 63;

    /** @throws IllegalArgumentException if {@code values} is null or not 71 entries */
    public RxStatistics {
        if (values == null || values.length != WORDS) {
            throw new IllegalArgumentException("rx_statistics has " + WORDS + " words");
        }
        values = values.clone();
    }

    /** @return a copy of the 71 counters */
    @Override
    public int[] values() {
        return values.clone();
    }

    /**
     * @param index 0..70
     * @return the counter at that index
     */
    public int value(int index) {
        return values[index];
    }

    /** @return packet allocation requests, count */
    public int packetRequests() {
        return values[PACKET_REQUESTS];
    }

    /**
     * @param type packet type 1..13
     * @return datagrams read of that type, count
     * @throws IndexOutOfBoundsException if type is outside 1..13
     */
    public int packetsRead(int type) {
        return values[PACKETS_READ + checkType(type) - 1];
    }

    /**
     * @param type packet type 1..13
     * @return datagrams sent of that type, count
     * @throws IndexOutOfBoundsException if type is outside 1..13
     */
    public int packetsSent(int type) {
        return values[PACKETS_SENT + checkType(type) - 1];
    }

    private static int checkType(int type) {
        if (type < 1 || type > PACKET_TYPES) {
            throw new IndexOutOfBoundsException("packet type must be 1.." + PACKET_TYPES + ": " + type);
        }
        return type;
    }

    /** @return unique DATA packets read, count */
    public int dataPacketsRead() {
        return values[DATA_PACKETS_READ];
    }

    /** @return ACK packets read, count */
    public int ackPacketsRead() {
        return values[ACK_PACKETS_READ];
    }

    /** @return duplicate DATA packets read, count */
    public int dupPacketsRead() {
        return values[DUP_PACKETS_READ];
    }

    /** @return DATA packets that did not belong to a call, count */
    public int spuriousPacketsRead() {
        return values[SPURIOUS_PACKETS_READ];
    }

    /** @return ACKs sent, count */
    public int ackPacketsSent() {
        return values[ACK_PACKETS_SENT];
    }

    /** @return PINGs sent, count */
    public int pingPacketsSent() {
        return values[PING_PACKETS_SENT];
    }

    /** @return ABORTs sent, count */
    public int abortPacketsSent() {
        return values[ABORT_PACKETS_SENT];
    }

    /** @return BUSYs sent, count */
    public int busyPacketsSent() {
        return values[BUSY_PACKETS_SENT];
    }

    /** @return unique DATA packets sent, counting every jumbogram sub-packet, count */
    public int dataPacketsSent() {
        return values[DATA_PACKETS_SENT];
    }

    /** @return DATA retransmissions, count */
    public int dataPacketsReSent() {
        return values[DATA_PACKETS_RESENT];
    }

    /** @return retransmissions pushed early by a NACK, count */
    public int dataPacketsPushed() {
        return values[DATA_PACKETS_PUSHED];
    }

    /** @return packets skipped by the sender because they were already acked, count */
    public int ignoreAckedPacket() {
        return values[IGNORE_ACKED_PACKET];
    }

    /** @return the sum of all RTT samples, microseconds */
    public long totalRttMicros() {
        return micros(TOTAL_RTT);
    }

    /** @return the smallest RTT sample, microseconds */
    public long minRttMicros() {
        return micros(MIN_RTT);
    }

    /** @return the largest RTT sample, microseconds */
    public long maxRttMicros() {
        return micros(MAX_RTT);
    }

    private long micros(int index) {
        return values[index] * 1_000_000L + values[index + 1];
    }

    /** @return RTT samples taken, count */
    public int nRttSamples() {
        return values[N_RTT_SAMPLES];
    }

    /** @return server connections, count */
    public int nServerConns() {
        return values[N_SERVER_CONNS];
    }

    /** @return client connections, count */
    public int nClientConns() {
        return values[N_CLIENT_CONNS];
    }

    /** @return peer structs, count */
    public int nPeerStructs() {
        return values[N_PEER_STRUCTS];
    }

    /** @return call structs allocated, count */
    public int nCallStructs() {
        return values[N_CALL_STRUCTS];
    }

    /** @return free call structs, count */
    public int nFreeCallStructs() {
        return values[N_FREE_CALL_STRUCTS];
    }

    /** @return failed UDP sends, count */
    public int netSendFailures() {
        return values[NET_SEND_FAILURES];
    }

    /** @return fatal errors, count */
    public int fatalErrors() {
        return values[FATAL_ERRORS];
    }

    /** @return packets dropped because their call was dallying, count */
    public int ignorePacketDally() {
        return values[IGNORE_PACKET_DALLY];
    }

    /**
     * Appends the 284-byte struct.
     *
     * @param out destination; its writer index advances by exactly {@link #SIZE}; not released
     */
    public void encode(ByteBuf out) {
        for (int v : values) {
            out.writeInt(v);
        }
    }

    /** @return the 284-byte body of a {@link DebugReply} carrying this struct */
    public byte[] toBody() {
        return DebugStructs.toBytes(SIZE, this::encode);
    }

    /**
     * Reads the struct from a debug reply body. Never throws.
     *
     * @param body the reply body; bytes past the first 284 are ignored
     * @return the struct, or {@code null} when {@code body} is null or shorter than 284 bytes
     */
    public static RxStatistics decode(byte[] body) {
        if (body == null || body.length < SIZE) {
            return null;
        }
        int[] values = new int[WORDS];
        for (int i = 0; i < WORDS; i++) {
            values[i] = DebugStructs.getInt(body, 4 * i);
        }
        return new RxStatistics(values);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RxStatistics s && Arrays.equals(s.values, values);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(values);
    }

    @Override
    public String toString() {
        return "RxStatistics" + Arrays.toString(values);
    }
}
