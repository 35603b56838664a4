// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine.telemetry;

import org.rx4j.wire.AckReason;
import org.rx4j.wire.PacketType;

/**
 * Packet and byte counters of one connection or peer, or of the endpoint itself (design.md "Counters without
 * contention"); the endpoint's also hold its defence counters (docs/robustness.md "Counters in the stats snapshot"),
 * so the engine's totals are one snapshot of everything. Written only by the engine's thread; totals are summed
 * on demand with {@link #addTo}. Plain fields, no atomics: one thread owns them. The fields are package-private: only
 * the engine writes them; everything else reads through the accessors (on the engine's thread) and the RPC layer
 * copies them into its immutable {@code CounterStats} snapshot and the stats' defences.
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
    /** Payload bytes of DATA packets the peer hard-acked (each packet once): what this side's sending moved. */
    public long payloadBytesAcked;
    /** Payload bytes handed to the application in order: what this side's receiving moved. */
    public long payloadBytesDelivered;
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
    /** ACKs and ACKALLs dropped whole as out of range for what was transmitted. */
    public long acksRejected;
    /** ACK trailers with a value outside its valid range, clamped or ignored. */
    public long trailersClamped;
    /** Jumbograms dropped whole: more sub-packets than advertised, or seqs wrapping through 0. */
    public long jumbogramsRejected;
    /** Replies to a peer not yet proven reachable left unsent: larger than what it had sent. */
    public long repliesWithheld;
    /** DATA above the LAST_PACKET its call accepted, dropped. */
    public long dataBeyondLast;
    // The endpoint's own counters below: 0 in a connection's or a peer's counters. The gauges (now) are filled in
    // when the engine takes its snapshot (RxEngine.totals); the rest are counted as they happen.
    /** Decoded packets no connection or call took. */
    public long droppedPackets;
    /** Server calls started. */
    public long callsExecuted;
    /** Server calls admitted but not started, now (held for packet 1 or reachability): a gauge. */
    public long heldServerCalls;
    /** DATA packets held by server calls not yet started, now: a gauge. */
    public long heldServerPackets;
    /** Held server calls forgotten because maxHeldPackets was exceeded. */
    public long heldCallsForgotten;
    /** Unproven server connections evicted to make room for new ones. */
    public long connectionsEvicted;
    /** New server connections refused with ABORT RX_CALL_BUSY because a limit was reached. */
    public long connectionsRefused;
    /** Server connections' packets from another address (epoch bit 31), processed; none moved the connection. */
    public long addressChangesRefused;
    /** Packets with a client connection's ids from an address other than its server's, dropped. */
    public long clientPacketsFromStrangers;
    /** Sources recorded by the reachability challenge, now: a gauge. */
    public long challengedSources;
    /** DATA packets kept for challenged sources, now: a gauge. */
    public long challengedPackets;
    /** Reachability PINGs sent to challenged sources. */
    public long challengesSent;
    /** PING_RESPONSEs that proved a challenged source reachable. */
    public long challengesAnswered;
    /** Challenged sources' records dropped to make room for others. */
    public long challengesEvicted;
    /** Challenged sources' records dropped a dead time after they were made, unanswered. */
    public long challengesExpired;
    /**
     * Bytes kept now for sources not proven or not authenticated (challenge-kept, held and parked packets, 28-byte
     * header + payload each): a gauge.
     */
    public long heldBytes;
    /** Packets not kept for such a source: past the byte budget, or larger than the source proved it can send. */
    public long heldPacketsRefused;
    /** Packets that failed a security check and came from an address other than their connection's, dropped. */
    public long securityFailuresFromOtherAddresses;
    /** Packets whose handling threw inside the engine (caught there, the packet dropped): any is a bug. */
    public long internalErrors;

    public static int typeSlot(int type) {
        return type >= 0 && type < 15 ? type : 15;
    }

    /** Adds every counter of this object into {@code total} (an accumulator, not this object). */
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
        total.droppedPackets += droppedPackets;
        total.callsExecuted += callsExecuted;
        total.heldServerCalls += heldServerCalls;
        total.heldServerPackets += heldServerPackets;
        total.heldCallsForgotten += heldCallsForgotten;
        total.connectionsEvicted += connectionsEvicted;
        total.connectionsRefused += connectionsRefused;
        total.addressChangesRefused += addressChangesRefused;
        total.clientPacketsFromStrangers += clientPacketsFromStrangers;
        total.challengedSources += challengedSources;
        total.challengedPackets += challengedPackets;
        total.challengesSent += challengesSent;
        total.challengesAnswered += challengesAnswered;
        total.challengesEvicted += challengesEvicted;
        total.challengesExpired += challengesExpired;
        total.heldBytes += heldBytes;
        total.heldPacketsRefused += heldPacketsRefused;
        total.securityFailuresFromOtherAddresses += securityFailuresFromOtherAddresses;
        total.internalErrors += internalErrors;
    }

    /**
     * Counts one received packet of a connection (or its peer): its bytes; DATA per datagram in packetsReceived (as
     * OpenAFS's rx_stats counts them) and per sub-packet in dataPacketsReceived; every other type under its
     * {@link #typeSlot}; a jumbogram once, with its last sub-packet.
     *
     * @param type the packet type code
     * @param bytes header + body, bytes
     * @param lastInDatagram true for the datagram's last packet
     * @param jumbogram true when the datagram held several packets
     */
    public void countReceived(int type, int bytes, boolean lastInDatagram, boolean jumbogram) {
        bytesReceived += bytes;
        if (jumbogram && lastInDatagram) {
            jumbogramsReceived++;
        }
        if (type != PacketType.DATA) {
            packetsReceived[typeSlot(type)]++;
        } else {
            dataPacketsReceived++;
            if (lastInDatagram) {
                packetsReceived[PacketType.DATA]++;
            }
        }
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

    /** @return ACKs and ACKALLs dropped whole as out of range for what was transmitted */
    public long acksRejected() {
        return acksRejected;
    }

    /** @return ACK trailers that carried a value outside its valid range, clamped or ignored */
    public long trailersClamped() {
        return trailersClamped;
    }

    /** @return jumbograms dropped whole: more sub-packets than advertised, or seqs wrapping through 0 */
    public long jumbogramsRejected() {
        return jumbogramsRejected;
    }

    /**
     * @return replies (reachability PINGs, ACKs, raw ABORTs, DEBUG/VERSION answers) to a peer not proven reachable
     *     left unsent because they would have been larger, in bytes, than what that peer had sent
     */
    public long repliesWithheld() {
        return repliesWithheld;
    }

    /** @return DATA packets above the seq of the LAST_PACKET accepted for their call, dropped */
    public long dataBeyondLast() {
        return dataBeyondLast;
    }

    /** @return decoded packets no connection or call took (e.g. for a finished call) */
    public long droppedPackets() {
        return droppedPackets;
    }

    /** @return server calls started since the engine was created */
    public long callsExecuted() {
        return callsExecuted;
    }

    /**
     * @return server calls admitted but not started when the snapshot was taken (in PRECALL: waiting for their
     *     request's packet 1 or their peer's reachability answer)
     */
    public long heldServerCalls() {
        return heldServerCalls;
    }

    /**
     * @return DATA packets held by server calls not yet started when the snapshot was taken (bounded by
     *     maxHeldPackets)
     */
    public long heldServerPackets() {
        return heldServerPackets;
    }

    /** @return held server calls forgotten because maxHeldPackets was exceeded */
    public long heldCallsForgotten() {
        return heldCallsForgotten;
    }

    /** @return unproven server connections evicted to make room for new ones */
    public long connectionsEvicted() {
        return connectionsEvicted;
    }

    /** @return new server connections refused with ABORT RX_CALL_BUSY because a limit was reached */
    public long connectionsRefused() {
        return connectionsRefused;
    }

    /**
     * @return server connections' packets from another address, processed without moving the connection
     *     (docs/robustness.md, "Rule: a server connection's address never moves on an unauthenticated packet")
     */
    public long addressChangesRefused() {
        return addressChangesRefused;
    }

    /**
     * @return packets with a client connection's ids from an address other than its server's, dropped
     *     (docs/robustness.md, "Rule: a client connection hears only its server's address")
     */
    public long clientPacketsFromStrangers() {
        return clientPacketsFromStrangers;
    }

    /**
     * @return sources recorded when the snapshot was taken that sent DATA for a new connection before proving
     *     reachable (no connection, call or peer exists for them; bounded by maxUnprovenConnections;
     *     docs/robustness.md "Rule: stateless reachability challenge")
     */
    public long challengedSources() {
        return challengedSources;
    }

    /** @return DATA packets kept for challenged sources when the snapshot was taken (bounded by maxHeldPackets) */
    public long challengedPackets() {
        return challengedPackets;
    }

    /** @return reachability PINGs sent to challenged sources */
    public long challengesSent() {
        return challengesSent;
    }

    /** @return PING_RESPONSEs that proved a challenged source reachable */
    public long challengesAnswered() {
        return challengesAnswered;
    }

    /**
     * @return challenged sources' records dropped to make room for others (the source or packet limit; their
     *     packets forgotten, a client resends)
     */
    public long challengesEvicted() {
        return challengesEvicted;
    }

    /** @return challenged sources' records dropped a dead time after they were made, unanswered */
    public long challengesExpired() {
        return challengesExpired;
    }

    /**
     * @return bytes kept when the snapshot was taken for sources not proven reachable or not authenticated: the
     *     reachability challenge's kept packets, held server calls' packets and DATA parked for a security
     *     handshake, 28-byte header + payload each (bounded per kind by maxHeldBytes; docs/robustness.md "Rule: a
     *     byte budget for what unproven sources leave")
     */
    public long heldBytes() {
        return heldBytes;
    }

    /**
     * @return packets not kept for a source not proven or not authenticated: past maxHeldBytes or
     *     maxHeldBytesPerPeer, or larger than the source proved it sends (the client resends them)
     */
    public long heldPacketsRefused() {
        return heldPacketsRefused;
    }

    /**
     * @return packets that failed their connection's security check (a DATA checksum, a RESPONSE) and came from an
     *     address other than the connection's: dropped, no ABORT sent (docs/robustness.md "Rule: a security failure
     *     from another address ends nothing")
     */
    public long securityFailuresFromOtherAddresses() {
        return securityFailuresFromOtherAddresses;
    }

    /**
     * @return packets whose handling threw inside the engine (caught there, the packet dropped); any is a bug,
     *     and the stateful fuzzer checks it stays 0
     */
    public long internalErrors() {
        return internalErrors;
    }
}
