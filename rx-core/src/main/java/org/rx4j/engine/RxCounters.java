package org.rx4j.engine;

import org.rx4j.wire.AckReason;
import org.rx4j.wire.PacketType;

/**
 * Packet and byte counters of one connection or peer (design.md "Counters without contention").
 * Written only by the engine's thread; totals are summed on demand with {@link #addTo}. Plain fields,
 * no atomics: one thread owns them. The fields are package-private: only the engine writes them; everything
 * else reads through the accessors (on the engine's thread) and the RPC layer copies them into its immutable
 * {@code CounterStats} snapshot.
 */
public final class RxCounters {
    /** Datagram-level packets sent, indexed by {@link PacketType} code (0..15; 15 = other). */
    final long[] packetsSent = new long[16];
    /** Packets received (jumbogram sub-packets count one each), indexed by type code. */
    final long[] packetsReceived = new long[16];
    /** ACKs sent, indexed by {@link AckReason} code. */
    final long[] acksSent = new long[AckReason.COUNT];
    /** ACKs received, indexed by reason code. */
    final long[] acksReceived = new long[AckReason.COUNT];
    /** Bytes sent: Rx header + body of every packet, sub-packets included. */
    long bytesSent;
    /** Bytes received, likewise. */
    long bytesReceived;
    /** DATA packets sent (sub-packets count one each), resends included. */
    long dataPacketsSent;
    /** DATA packets received (sub-packets count one each), duplicates included. */
    long dataPacketsReceived;
    /** DATA packets retransmitted. */
    long resends;
    /** Jumbograms (datagrams of 2+ sub-packets) sent. */
    long jumbogramsSent;
    /** Jumbograms received. */
    long jumbogramsReceived;
    /** Most sub-packets seen in one received jumbogram. */
    long largestJumbogramReceived;
    /** DATA packets received that were already held or consumed. */
    long duplicatesReceived;
    /** Payload bytes of DATA packets the peer hard-acked (each packet once): what this side's sending moved. */
    long payloadBytesAcked;
    /** Payload bytes handed to the application in order: what this side's receiving moved. */
    long payloadBytesDelivered;
    /** ACKs ignored as older than one already processed. */
    long acksIgnored;
    /** Calls started (client: first packet sent; server: handler started). */
    long callsStarted;
    /** Calls that ended without error. */
    long callsSucceeded;
    /** Calls that ended with an error code. */
    long callsFailed;
    /** Retransmission timeouts that fired. */
    long timeouts;
    /** Fast retransmits triggered by NACKs. */
    long fastRetransmits;
    /** ACKs and ACKALLs dropped whole as out of range for what was transmitted (docs/robustness.md rule 2). */
    long acksRejected;
    /** ACK trailers with a value outside its valid range, clamped or ignored (docs/robustness.md rule 1). */
    long trailersClamped;
    /** Jumbograms dropped whole: more sub-packets than advertised, or seqs wrapping through 0 (robustness rule 5). */
    long jumbogramsRejected;
    /** Replies to a peer not yet proven reachable left unsent: larger than what it had sent (robustness rule 6). */
    long repliesWithheld;
    /** DATA packets above the seq of the LAST_PACKET accepted, dropped (docs/robustness.md rule 14). */
    long dataBeyondLast;

    static int typeSlot(int type) {
        return type >= 0 && type < 15 ? type : 15;
    }

    /**
     * Adds every counter of this object into {@code total}.
     *
     * @param total accumulator, not this object
     */
    void addTo(RxCounters total) {
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
        total.payloadBytesAcked += payloadBytesAcked;
        total.payloadBytesDelivered += payloadBytesDelivered;
        total.acksIgnored += acksIgnored;
        total.callsStarted += callsStarted;
        total.callsSucceeded += callsSucceeded;
        total.callsFailed += callsFailed;
        total.timeouts += timeouts;
        total.fastRetransmits += fastRetransmits;
        total.acksRejected += acksRejected;
        total.trailersClamped += trailersClamped;
        total.jumbogramsRejected += jumbogramsRejected;
        total.repliesWithheld += repliesWithheld;
        total.dataBeyondLast += dataBeyondLast;
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

    /** @return bytes sent: Rx header + body of every packet, sub-packets included */
    public long bytesSent() {
        return bytesSent;
    }

    /** @return bytes received, likewise */
    public long bytesReceived() {
        return bytesReceived;
    }

    /** @return dATA packets sent (sub-packets count one each), resends included */
    public long dataPacketsSent() {
        return dataPacketsSent;
    }

    /** @return dATA packets received (sub-packets count one each), duplicates included */
    public long dataPacketsReceived() {
        return dataPacketsReceived;
    }

    /** @return dATA packets retransmitted */
    public long resends() {
        return resends;
    }

    /** @return jumbograms (datagrams of 2+ sub-packets) sent */
    public long jumbogramsSent() {
        return jumbogramsSent;
    }

    /** @return jumbograms received */
    public long jumbogramsReceived() {
        return jumbogramsReceived;
    }

    /** @return most sub-packets seen in one received jumbogram */
    public long largestJumbogramReceived() {
        return largestJumbogramReceived;
    }

    /** @return dATA packets received that were already held or consumed */
    public long duplicatesReceived() {
        return duplicatesReceived;
    }

    /** @return payload bytes of DATA packets the peer hard-acked, each packet counted once */
    public long payloadBytesAcked() {
        return payloadBytesAcked;
    }

    /** @return payload bytes handed to the application in order */
    public long payloadBytesDelivered() {
        return payloadBytesDelivered;
    }

    /** @return aCKs ignored as older than one already processed */
    public long acksIgnored() {
        return acksIgnored;
    }

    /** @return calls started (client: first packet sent; server: handler started) */
    public long callsStarted() {
        return callsStarted;
    }

    /** @return calls that ended without error */
    public long callsSucceeded() {
        return callsSucceeded;
    }

    /** @return calls that ended with an error code */
    public long callsFailed() {
        return callsFailed;
    }

    /** @return retransmission timeouts that fired */
    public long timeouts() {
        return timeouts;
    }

    /** @return fast retransmits triggered by NACKs */
    public long fastRetransmits() {
        return fastRetransmits;
    }

    /**
     * @param type packet type code (0..15; 15 counts every other code)
     * @return packets of that type sent
     * @throws ArrayIndexOutOfBoundsException if type is outside 0..15
     */
    public long packetsSent(int type) {
        return packetsSent[type];
    }

    /**
     * @param type packet type code (0..15; 15 counts every other code)
     * @return packets of that type received (jumbogram sub-packets count one each)
     * @throws ArrayIndexOutOfBoundsException if type is outside 0..15
     */
    public long packetsReceived(int type) {
        return packetsReceived[type];
    }

    /**
     * @param reason ACK reason code (see {@link AckReason}), 0..AckReason.COUNT-1
     * @return ACKs of that reason sent
     * @throws ArrayIndexOutOfBoundsException if reason is out of range
     */
    public long acksSent(int reason) {
        return acksSent[reason];
    }

    /**
     * @param reason ACK reason code, 0..AckReason.COUNT-1
     * @return ACKs of that reason received
     * @throws ArrayIndexOutOfBoundsException if reason is out of range
     */
    public long acksReceived(int reason) {
        return acksReceived[reason];
    }

    /** @return ACKs and ACKALLs dropped whole as out of range for what was transmitted (docs/robustness.md rule 2) */
    public long acksRejected() {
        return acksRejected;
    }

    /** @return ACK trailers that carried a value outside its valid range, clamped or ignored (robustness rule 1) */
    public long trailersClamped() {
        return trailersClamped;
    }

    /** @return jumbograms dropped whole: more sub-packets than advertised, or seqs wrapping through 0 (rule 5) */
    public long jumbogramsRejected() {
        return jumbogramsRejected;
    }

    /**
     * @return replies (reachability PINGs, ACKs, raw ABORTs, DEBUG/VERSION answers) to a peer not proven reachable
     *     left unsent because they would have been larger, in bytes, than what that peer had sent (rule 6)
     */
    public long repliesWithheld() {
        return repliesWithheld;
    }

    /** @return DATA packets above the seq of the LAST_PACKET accepted for their call, dropped (rule 14) */
    public long dataBeyondLast() {
        return dataBeyondLast;
    }
}
