package org.rx4j.engine;

import java.util.LinkedHashMap;
import java.util.Map;
import org.rx4j.wire.AckReason;
import org.rx4j.wire.PacketType;

/**
 * Packet and byte counters of one connection or peer (design.md "Counters without contention").
 * Written only by the engine's thread; totals are summed on demand with {@link #addTo}. Plain fields,
 * no atomics: one thread owns them.
 */
public final class RxCounters {
    /** Datagram-level packets sent, indexed by {@link PacketType} code (0..15; 15 = other). */
    public final long[] packetsSent = new long[16];
    /** Packets received (jumbogram sub-packets count one each), indexed by type code. */
    public final long[] packetsReceived = new long[16];
    /** ACKs sent, indexed by {@link AckReason} code. */
    public final long[] acksSent = new long[AckReason.COUNT];
    /** ACKs received, indexed by reason code. */
    public final long[] acksReceived = new long[AckReason.COUNT];
    /** Bytes sent: Rx header + body of every packet, sub-packets included. */
    public long bytesSent;
    /** Bytes received, likewise. */
    public long bytesReceived;
    /** DATA packets sent (sub-packets count one each), resends included. */
    public long dataPacketsSent;
    /** DATA packets received (sub-packets count one each), duplicates included. */
    public long dataPacketsReceived;
    /** DATA packets retransmitted. */
    public long resends;
    /** Jumbograms (datagrams of 2+ sub-packets) sent. */
    public long jumbogramsSent;
    /** Jumbograms received. */
    public long jumbogramsReceived;
    /** Most sub-packets seen in one received jumbogram. */
    public long largestJumbogramReceived;
    /** DATA packets received that were already held or consumed. */
    public long duplicatesReceived;
    /** ACKs ignored as older than one already processed. */
    public long acksIgnored;
    /** Calls started (client: first packet sent; server: handler started). */
    public long callsStarted;
    /** Calls that ended without error. */
    public long callsSucceeded;
    /** Calls that ended with an error code. */
    public long callsFailed;
    /** Retransmission timeouts that fired. */
    public long timeouts;
    /** Fast retransmits triggered by NACKs. */
    public long fastRetransmits;

    static int typeSlot(int type) {
        return type >= 0 && type < 15 ? type : 15;
    }

    /**
     * Adds every counter of this object into {@code total}.
     *
     * @param total accumulator, not this object
     */
    public void addTo(RxCounters total) {
        for (int i = 0; i < packetsSent.length; i++) {
            total.packetsSent[i] += packetsSent[i];
            total.packetsReceived[i] += packetsReceived[i];
        }
        for (int i = 0; i < acksSent.length; i++) {
            total.acksSent[i] += acksSent[i];
            total.acksReceived[i] += acksReceived[i];
        }
        total.bytesSent += bytesSent;
        total.bytesReceived += bytesReceived;
        total.dataPacketsSent += dataPacketsSent;
        total.dataPacketsReceived += dataPacketsReceived;
        total.resends += resends;
        total.jumbogramsSent += jumbogramsSent;
        total.jumbogramsReceived += jumbogramsReceived;
        total.largestJumbogramReceived = Math.max(total.largestJumbogramReceived, largestJumbogramReceived);
        total.duplicatesReceived += duplicatesReceived;
        total.acksIgnored += acksIgnored;
        total.callsStarted += callsStarted;
        total.callsSucceeded += callsSucceeded;
        total.callsFailed += callsFailed;
        total.timeouts += timeouts;
        total.fastRetransmits += fastRetransmits;
    }

    /** @return total packets sent over all types */
    public long totalPacketsSent() {
        long n = 0;
        for (long v : packetsSent) {
            n += v;
        }
        return n;
    }

    /** @return total packets received over all types */
    public long totalPacketsReceived() {
        long n = 0;
        for (long v : packetsReceived) {
            n += v;
        }
        return n;
    }

    /**
     * Flattens the counters to names, for {@code rxperf -D} and the stats API. Zero per-type and
     * per-reason entries are left out.
     *
     * @return insertion-ordered map of counter name to value
     */
    public Map<String, Long> toMap() {
        Map<String, Long> m = new LinkedHashMap<>();
        m.put("bytesSent", bytesSent);
        m.put("bytesReceived", bytesReceived);
        for (int t = 0; t < packetsSent.length; t++) {
            if (packetsSent[t] != 0) {
                m.put("packetsSent." + PacketType.name(t), packetsSent[t]);
            }
        }
        for (int t = 0; t < packetsReceived.length; t++) {
            if (packetsReceived[t] != 0) {
                m.put("packetsReceived." + PacketType.name(t), packetsReceived[t]);
            }
        }
        m.put("dataPacketsSent", dataPacketsSent);
        m.put("dataPacketsReceived", dataPacketsReceived);
        m.put("resends", resends);
        m.put("timeouts", timeouts);
        m.put("fastRetransmits", fastRetransmits);
        m.put("jumbogramsSent", jumbogramsSent);
        m.put("jumbogramsReceived", jumbogramsReceived);
        m.put("largestJumbogramReceived", largestJumbogramReceived);
        m.put("duplicatesReceived", duplicatesReceived);
        m.put("acksIgnored", acksIgnored);
        for (int r = 1; r < acksSent.length; r++) {
            if (acksSent[r] != 0) {
                m.put("acksSent." + AckReason.name(r), acksSent[r]);
            }
        }
        for (int r = 1; r < acksReceived.length; r++) {
            if (acksReceived[r] != 0) {
                m.put("acksReceived." + AckReason.name(r), acksReceived[r]);
            }
        }
        m.put("callsStarted", callsStarted);
        m.put("callsSucceeded", callsSucceeded);
        m.put("callsFailed", callsFailed);
        return m;
    }
}
