// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine;

import java.util.List;
import org.rx4j.wire.AckPacket;
import org.rx4j.wire.PacketType;
import org.rx4j.wire.RxPacket;

/**
 * Counts the datagrams the simulator delivered in one direction, by packet type and ACK reason, so tests can
 * compare an engine's own counters and ack policy against what really crossed the link.
 */
public final class SimTraffic {
    /** Datagrams delivered. */
    long datagrams;
    /** Datagrams delivered, by the type of their (first) packet. */
    public final long[] datagramsByType = new long[256];
    /** DATA packets delivered: every sub-packet of a jumbogram counts one. */
    public long dataPackets;
    /** Datagrams that held 2 or more DATA packets. */
    public long jumbograms;
    /** Largest number of DATA packets seen in one datagram. */
    public int maxSubPackets;
    /** ACK datagrams delivered, by reason. */
    public final long[] acksByReason = new long[256];
    /** UDP payload bytes delivered. */
    long bytes;

    void count(List<RxPacket> packets, int datagramBytes) {
        datagrams++;
        bytes += datagramBytes;
        RxPacket first = packets.get(0);
        int type = first.header().type();
        datagramsByType[type]++;
        if (type == PacketType.DATA) {
            dataPackets += packets.size();
            if (packets.size() > 1) {
                jumbograms++;
            }
            maxSubPackets = Math.max(maxSubPackets, packets.size());
        } else if (first instanceof AckPacket a) {
            acksByReason[a.reason()]++;
        }
    }
}
