// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc.stats;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import org.rx4j.rpc.RxEndpoint;

/**
 * Packet, byte, ack and call counters of a connection or of a whole endpoint, as a read-only snapshot
 * (the counters {@code rxdebug -rxstats} and {@code rxperf -D} show; engine {@code RxCounters}). Counts
 * since the connection or endpoint was created; bytes are Rx header plus body. Packet counts by type count
 * datagrams, as OpenAFS's rx_stats does (a jumbogram is one DATA packet there); {@code dataPacketsSent} and
 * {@code dataPacketsReceived} count a jumbogram's sub-packets one each.
 *
 * @param bytesSent bytes sent
 * @param bytesReceived bytes received
 * @param packetsSent packets sent, every type
 * @param packetsReceived packets received, every type
 * @param dataPacketsSent DATA packets sent, retransmissions included
 * @param dataPacketsReceived DATA packets received, duplicates included
 * @param resends DATA packets retransmitted
 * @param retransmitTimeouts retransmission timeouts that fired
 * @param fastRetransmits fast retransmits triggered by NACKs
 * @param jumbogramsSent datagrams of 2 or more DATA packets sent
 * @param jumbogramsReceived such datagrams received
 * @param largestJumbogramReceived most sub-packets seen in one received jumbogram
 * @param duplicatesReceived DATA packets received that were already held or consumed
 * @param payloadBytesAcked payload bytes of DATA packets the peer hard-acked, each packet once (what sending moved)
 * @param payloadBytesDelivered payload bytes handed to the application in order (what receiving moved)
 * @param acksIgnored ACKs ignored as older than one already processed
 * @param callsStarted calls started
 * @param callsSucceeded calls ended without error
 * @param callsFailed calls ended with an abort code
 * @param packetsSentByType packets sent by packet type name (DATA, ACK, ABORT, ...), zero counts left out
 * @param packetsReceivedByType packets received by packet type name, zero counts left out
 * @param acksSentByReason ACKs sent by reason name (REQUESTED, DUPLICATE, ..., IDLE), zero counts left out
 * @param acksReceivedByReason ACKs received by reason name, zero counts left out
 */
public record CounterStats(long bytesSent, long bytesReceived, long packetsSent, long packetsReceived,
                           long dataPacketsSent, long dataPacketsReceived, long resends, long retransmitTimeouts, long fastRetransmits,
                           long jumbogramsSent, long jumbogramsReceived, long largestJumbogramReceived,
                           long duplicatesReceived, long payloadBytesAcked, long payloadBytesDelivered,
                           long acksIgnored, long callsStarted, long callsSucceeded,
                           long callsFailed, Map<String, Long> packetsSentByType,
                           Map<String, Long> packetsReceivedByType, Map<String, Long> acksSentByReason,
                           Map<String, Long> acksReceivedByReason) {
    /**
     * Copies the maps into unmodifiable insertion-ordered maps.
     *
     * @param bytesSent see {@link #bytesSent()}
     * @param bytesReceived see {@link #bytesReceived()}
     * @param packetsSent see {@link #packetsSent()}
     * @param packetsReceived see {@link #packetsReceived()}
     * @param dataPacketsSent see {@link #dataPacketsSent()}
     * @param dataPacketsReceived see {@link #dataPacketsReceived()}
     * @param resends see {@link #resends()}
     * @param retransmitTimeouts see {@link #retransmitTimeouts()}
     * @param fastRetransmits see {@link #fastRetransmits()}
     * @param jumbogramsSent see {@link #jumbogramsSent()}
     * @param jumbogramsReceived see {@link #jumbogramsReceived()}
     * @param largestJumbogramReceived see {@link #largestJumbogramReceived()}
     * @param duplicatesReceived see {@link #duplicatesReceived()}
     * @param payloadBytesAcked see {@link #payloadBytesAcked()}
     * @param payloadBytesDelivered see {@link #payloadBytesDelivered()}
     * @param acksIgnored see {@link #acksIgnored()}
     * @param callsStarted see {@link #callsStarted()}
     * @param callsSucceeded see {@link #callsSucceeded()}
     * @param callsFailed see {@link #callsFailed()}
     * @param packetsSentByType see {@link #packetsSentByType()}
     * @param packetsReceivedByType see {@link #packetsReceivedByType()}
     * @param acksSentByReason see {@link #acksSentByReason()}
     * @param acksReceivedByReason see {@link #acksReceivedByReason()}
     */
    public CounterStats {
        packetsSentByType = frozen(packetsSentByType);
        packetsReceivedByType = frozen(packetsReceivedByType);
        acksSentByReason = frozen(acksSentByReason);
        acksReceivedByReason = frozen(acksReceivedByReason);
    }

    /**
     * The counters flattened to names: the one flattening behind {@link RxEndpoint#stats()} and {@code rxperf -D}
     * (whose output keys these are). Per-type and per-reason entries with a zero count are left out.
     *
     * @return insertion-ordered, modifiable map of counter name to value: bytesSent, bytesReceived,
     *     packetsSent.TYPE..., packetsReceived.TYPE..., dataPacketsSent, dataPacketsReceived, resends, timeouts,
     *     fastRetransmits, jumbogramsSent, jumbogramsReceived, largestJumbogramReceived, duplicatesReceived,
     *     payloadBytesAcked, payloadBytesDelivered, acksIgnored, acksSent.REASON..., acksReceived.REASON...,
     *     callsStarted, callsSucceeded, callsFailed
     */
    public Map<String, Long> toMap() {
        Map<String, Long> m = new LinkedHashMap<>();
        m.put("bytesSent", bytesSent);
        m.put("bytesReceived", bytesReceived);
        prefixed(m, "packetsSent.", packetsSentByType);
        prefixed(m, "packetsReceived.", packetsReceivedByType);
        m.put("dataPacketsSent", dataPacketsSent);
        m.put("dataPacketsReceived", dataPacketsReceived);
        m.put("resends", resends);
        m.put("timeouts", retransmitTimeouts);
        m.put("fastRetransmits", fastRetransmits);
        m.put("jumbogramsSent", jumbogramsSent);
        m.put("jumbogramsReceived", jumbogramsReceived);
        m.put("largestJumbogramReceived", largestJumbogramReceived);
        m.put("duplicatesReceived", duplicatesReceived);
        m.put("payloadBytesAcked", payloadBytesAcked);
        m.put("payloadBytesDelivered", payloadBytesDelivered);
        m.put("acksIgnored", acksIgnored);
        prefixed(m, "acksSent.", acksSentByReason);
        prefixed(m, "acksReceived.", acksReceivedByReason);
        m.put("callsStarted", callsStarted);
        m.put("callsSucceeded", callsSucceeded);
        m.put("callsFailed", callsFailed);
        return m;
    }

    private static void prefixed(Map<String, Long> into, String prefix, Map<String, Long> counts) {
        for (Map.Entry<String, Long> e : counts.entrySet()) {
            into.put(prefix + e.getKey(), e.getValue());
        }
    }

    private static Map<String, Long> frozen(Map<String, Long> m) {
        return Collections.unmodifiableMap(new LinkedHashMap<>(m));
    }
}
