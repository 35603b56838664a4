// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.counters;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.rx4j.wire.AckReason;
import org.rx4j.wire.DecodeError;
import org.rx4j.wire.PacketType;

/**
 * Every counter of an endpoint, declared once: its {@link #key() name}, {@link #unit() unit}, {@link #kind() kind},
 * {@link #scope() scope}, {@link #labels() labels} and {@link #description() meaning} (design.md "Counters without
 * contention"; the defences' counters name their rule in docs/robustness.md "Counters in the stats snapshot"). The
 * engine counts into one slot per constant (one per label for a labelled counter), the stats snapshot
 * ({@code CounterStats}), the flattened {@code RxEndpoint.stats()} / {@code rxperf -D} names and the JMX attributes
 * are loops over {@link #values()}: adding a constant here is the whole of adding a counter.
 *
 * <p>Constants of {@link Scope#CONNECTION} come first (the engine sizes a connection's slots to them).
 */
public enum RxCounter {
    /** Bytes sent: Rx header + body of every packet, jumbogram sub-packets included. */
    BYTES_SENT("bytesSent", Unit.BYTES, Kind.COUNTER, Scope.CONNECTION, Labels.NONE,
            "bytes sent: Rx header + body of every packet, jumbogram sub-packets included"),
    /** Bytes received, likewise. */
    BYTES_RECEIVED("bytesReceived", Unit.BYTES, Kind.COUNTER, Scope.CONNECTION, Labels.NONE,
            "bytes received: Rx header + body of every packet, jumbogram sub-packets included"),
    /** Packets sent by packet type; a jumbogram is one DATA packet, as OpenAFS's rx_stats counts it. */
    PACKETS_SENT("packetsSent", Unit.PACKETS, Kind.COUNTER, Scope.CONNECTION, Labels.PACKET_TYPE,
            "packets sent by type (a jumbogram counts one DATA packet, as OpenAFS's rx_stats)"),
    /** Packets received by packet type; a jumbogram is one DATA packet. */
    PACKETS_RECEIVED("packetsReceived", Unit.PACKETS, Kind.COUNTER, Scope.CONNECTION, Labels.PACKET_TYPE,
            "packets received by type (a jumbogram counts one DATA packet, as OpenAFS's rx_stats)"),
    /** DATA packets sent, jumbogram sub-packets one each, retransmissions included. */
    DATA_PACKETS_SENT("dataPacketsSent", Unit.PACKETS, Kind.COUNTER, Scope.CONNECTION, Labels.NONE,
            "DATA packets sent, jumbogram sub-packets one each, retransmissions included"),
    /** DATA packets received, jumbogram sub-packets one each, duplicates included. */
    DATA_PACKETS_RECEIVED("dataPacketsReceived", Unit.PACKETS, Kind.COUNTER, Scope.CONNECTION, Labels.NONE,
            "DATA packets received, jumbogram sub-packets one each, duplicates included"),
    /** DATA packets retransmitted. */
    RESENDS("resends", Unit.PACKETS, Kind.COUNTER, Scope.CONNECTION, Labels.NONE,
            "DATA packets retransmitted"),
    /** Retransmission timeouts that fired. */
    RETRANSMIT_TIMEOUTS("retransmitTimeouts", Unit.EVENTS, Kind.COUNTER, Scope.CONNECTION, Labels.NONE,
            "retransmission timeouts that fired"),
    /** Fast retransmits triggered by NACKs. */
    FAST_RETRANSMITS("fastRetransmits", Unit.EVENTS, Kind.COUNTER, Scope.CONNECTION, Labels.NONE,
            "fast retransmits triggered by NACKs"),
    /** Datagrams of 2 or more DATA packets sent. */
    JUMBOGRAMS_SENT("jumbogramsSent", Unit.DATAGRAMS, Kind.COUNTER, Scope.CONNECTION, Labels.NONE,
            "jumbograms (datagrams of 2 or more DATA packets) sent"),
    /** Such datagrams received. */
    JUMBOGRAMS_RECEIVED("jumbogramsReceived", Unit.DATAGRAMS, Kind.COUNTER, Scope.CONNECTION, Labels.NONE,
            "jumbograms received"),
    /** DATA packets received that were already held or consumed. */
    DUPLICATES_RECEIVED("duplicatesReceived", Unit.PACKETS, Kind.COUNTER, Scope.CONNECTION, Labels.NONE,
            "DATA packets received that were already held or consumed"),
    /** Payload bytes of DATA packets the peer hard-acked, each packet once: what sending moved. */
    PAYLOAD_BYTES_ACKED("payloadBytesAcked", Unit.BYTES, Kind.COUNTER, Scope.CONNECTION, Labels.NONE,
            "payload bytes of DATA packets the peer hard-acked, each packet once (what sending moved)"),
    /** Payload bytes handed to the application in order: what receiving moved. */
    PAYLOAD_BYTES_DELIVERED("payloadBytesDelivered", Unit.BYTES, Kind.COUNTER, Scope.CONNECTION, Labels.NONE,
            "payload bytes handed to the application in order (what receiving moved)"),
    /** ACKs ignored as older than one already processed. */
    ACKS_IGNORED("acksIgnored", Unit.PACKETS, Kind.COUNTER, Scope.CONNECTION, Labels.NONE,
            "ACKs ignored as older than one already processed"),
    /** ACKs sent by reason. */
    ACKS_SENT("acksSent", Unit.PACKETS, Kind.COUNTER, Scope.CONNECTION, Labels.ACK_REASON,
            "ACKs sent by reason"),
    /** ACKs received by reason (reasons past the last known one count under it). */
    ACKS_RECEIVED("acksReceived", Unit.PACKETS, Kind.COUNTER, Scope.CONNECTION, Labels.ACK_REASON,
            "ACKs received by reason"),
    /** Calls started (client: first packet sent; server: handler started). */
    CALLS_STARTED("callsStarted", Unit.CALLS, Kind.COUNTER, Scope.CONNECTION, Labels.NONE,
            "calls started (client: first packet sent; server: handler started)"),
    /** Calls ended without error. */
    CALLS_SUCCEEDED("callsSucceeded", Unit.CALLS, Kind.COUNTER, Scope.CONNECTION, Labels.NONE,
            "calls ended without error"),
    /** Calls ended with an abort code. */
    CALLS_FAILED("callsFailed", Unit.CALLS, Kind.COUNTER, Scope.CONNECTION, Labels.NONE,
            "calls ended with an abort code"),
    /** ACKs and ACKALLs dropped whole as out of range for what was transmitted. */
    ACKS_REJECTED("acksRejected", Unit.PACKETS, Kind.COUNTER, Scope.CONNECTION, Labels.NONE,
            "ACKs and ACKALLs dropped whole as out of range for what was transmitted"),
    /** ACK trailers with a value outside its valid range, clamped or ignored. */
    TRAILERS_CLAMPED("trailersClamped", Unit.PACKETS, Kind.COUNTER, Scope.CONNECTION, Labels.NONE,
            "ACK trailers with a value outside its valid range, clamped or ignored"),
    /** Replies to a peer not proven reachable left unsent: larger, in bytes, than what it had sent. */
    REPLIES_WITHHELD("repliesWithheld", Unit.PACKETS, Kind.COUNTER, Scope.CONNECTION, Labels.NONE,
            "replies (PINGs, ACKs, raw ABORTs, DEBUG/VERSION answers) to a peer not proven reachable left unsent:"
                    + " larger than what it had sent"),
    /** DATA packets above the LAST_PACKET accepted for their call, dropped. */
    DATA_BEYOND_LAST("dataBeyondLast", Unit.PACKETS, Kind.COUNTER, Scope.CONNECTION, Labels.NONE,
            "DATA packets above the LAST_PACKET accepted for their call, dropped"),

    /** Most sub-packets seen in one received jumbogram. */
    LARGEST_JUMBOGRAM_RECEIVED("largestJumbogramReceived", Unit.PACKETS, Kind.MAXIMUM, Scope.ENDPOINT, Labels.NONE,
            "most sub-packets seen in one received jumbogram"),
    /** Decoded packets no connection or call took (e.g. for a finished call). */
    DROPPED_PACKETS("droppedPackets", Unit.PACKETS, Kind.COUNTER, Scope.ENDPOINT, Labels.NONE,
            "decoded packets no connection or call took (e.g. for a finished call)"),
    /** Server calls started. */
    CALLS_EXECUTED("callsExecuted", Unit.CALLS, Kind.COUNTER, Scope.ENDPOINT, Labels.NONE,
            "server calls started"),
    /** Jumbograms dropped whole: more sub-packets than advertised, or seqs wrapping through 0. */
    JUMBOGRAMS_REJECTED("jumbogramsRejected", Unit.DATAGRAMS, Kind.COUNTER, Scope.ENDPOINT, Labels.NONE,
            "jumbograms dropped whole: more sub-packets than advertised, or seqs wrapping through 0"),
    /** Server calls admitted but not started (held for packet 1 or reachability), now. */
    HELD_SERVER_CALLS("heldServerCalls", Unit.CALLS, Kind.GAUGE, Scope.ENDPOINT, Labels.NONE,
            "server calls admitted but not started, now (held for their packet 1 or their peer's reachability)"),
    /** DATA packets held by server calls not yet started, now. */
    HELD_SERVER_PACKETS("heldServerPackets", Unit.PACKETS, Kind.GAUGE, Scope.ENDPOINT, Labels.NONE,
            "DATA packets held by server calls not yet started, now (bounded by maxHeldPackets)"),
    /** Held server calls forgotten because maxHeldPackets was exceeded. */
    HELD_CALLS_FORGOTTEN("heldCallsForgotten", Unit.CALLS, Kind.COUNTER, Scope.ENDPOINT, Labels.NONE,
            "held server calls forgotten because maxHeldPackets was exceeded"),
    /** Unproven server connections evicted to make room for new ones. */
    CONNECTIONS_EVICTED("connectionsEvicted", Unit.CONNECTIONS, Kind.COUNTER, Scope.ENDPOINT, Labels.NONE,
            "unproven server connections evicted to make room for new ones"),
    /** New server connections refused with ABORT RX_CALL_BUSY because a limit was reached. */
    CONNECTIONS_REFUSED("connectionsRefused", Unit.CONNECTIONS, Kind.COUNTER, Scope.ENDPOINT, Labels.NONE,
            "new server connections refused with ABORT RX_CALL_BUSY because a limit was reached"),
    /** Server connections' packets from another address, processed without moving the connection. */
    ADDRESS_CHANGES_REFUSED("addressChangesRefused", Unit.PACKETS, Kind.COUNTER, Scope.ENDPOINT, Labels.NONE,
            "server connections' packets from another address, processed without moving the connection"),
    /** Packets with a client connection's ids from an address other than its server's, dropped. */
    CLIENT_PACKETS_FROM_STRANGERS("clientPacketsFromStrangers", Unit.PACKETS, Kind.COUNTER, Scope.ENDPOINT,
            Labels.NONE, "packets with a client connection's ids from an address other than its server's, dropped"),
    /** Sources not proven reachable whose new-connection DATA is kept without a connection, now. */
    CHALLENGED_SOURCES("challengedSources", Unit.SOURCES, Kind.GAUGE, Scope.ENDPOINT, Labels.NONE,
            "sources not proven reachable whose new-connection DATA is kept without a connection, now"),
    /** DATA packets kept for challenged sources, now. */
    CHALLENGED_PACKETS("challengedPackets", Unit.PACKETS, Kind.GAUGE, Scope.ENDPOINT, Labels.NONE,
            "DATA packets kept for challenged sources, now (bounded by maxHeldPackets)"),
    /** Reachability PINGs (or stateless CHALLENGEs) sent to challenged sources. */
    CHALLENGES_SENT("challengesSent", Unit.PACKETS, Kind.COUNTER, Scope.ENDPOINT, Labels.NONE,
            "reachability PINGs (or stateless CHALLENGEs) sent to challenged sources"),
    /** Answers that proved a challenged source reachable. */
    CHALLENGES_ANSWERED("challengesAnswered", Unit.PACKETS, Kind.COUNTER, Scope.ENDPOINT, Labels.NONE,
            "answers that proved a challenged source reachable"),
    /** Challenged sources' records dropped to make room for others. */
    CHALLENGES_EVICTED("challengesEvicted", Unit.SOURCES, Kind.COUNTER, Scope.ENDPOINT, Labels.NONE,
            "challenged sources' records dropped to make room for others"),
    /** Challenged sources' records dropped a dead time after they were made, unanswered. */
    CHALLENGES_EXPIRED("challengesExpired", Unit.SOURCES, Kind.COUNTER, Scope.ENDPOINT, Labels.NONE,
            "challenged sources' records dropped a dead time after they were made, unanswered"),
    /** Bytes kept now for sources not proven or not authenticated, 28-byte header + payload each. */
    HELD_BYTES("heldBytes", Unit.BYTES, Kind.GAUGE, Scope.ENDPOINT, Labels.NONE,
            "bytes kept now for sources not proven reachable or not authenticated (challenge-kept, held and parked"
                    + " packets, 28-byte header + payload each)"),
    /** Packets not kept for such a source: past the byte budget, or larger than the source proved it sends. */
    HELD_PACKETS_REFUSED("heldPacketsRefused", Unit.PACKETS, Kind.COUNTER, Scope.ENDPOINT, Labels.NONE,
            "packets not kept for a source not proven or not authenticated: past the byte budget, or larger than"
                    + " the source proved it sends"),
    /** Packets that failed a security check from an address other than their connection's, dropped. */
    SECURITY_FAILURES_FROM_OTHER_ADDRESSES("securityFailuresFromOtherAddresses", Unit.PACKETS, Kind.COUNTER,
            Scope.ENDPOINT, Labels.NONE,
            "packets that failed a security check from an address other than their connection's, dropped"),
    /** Packets whose handling threw inside the engine (caught there, the packet dropped): any is a bug. */
    INTERNAL_ERRORS("internalErrors", Unit.PACKETS, Kind.COUNTER, Scope.ENDPOINT, Labels.NONE,
            "packets whose handling threw inside the engine (caught, the packet dropped): any is a bug"),

    /** CHALLENGE packets this endpoint sent as a server, resends included (docs/security.md "In the engine"). */
    SECURITY_CHALLENGES_SENT("security.challengesSent", Unit.PACKETS, Kind.COUNTER, Scope.ENDPOINT, Labels.NONE,
            "CHALLENGE packets sent as a server, resends included"),
    /** CHALLENGEs not answered as a client (rxnull or failed connection, or over the rate limit). */
    SECURITY_CHALLENGES_IGNORED("security.challengesIgnored", Unit.PACKETS, Kind.COUNTER, Scope.ENDPOINT,
            Labels.NONE, "CHALLENGEs not answered as a client (rxnull or failed connection, or over the rate limit)"),
    /** RESPONSE packets sent as a client. */
    SECURITY_RESPONSES_SENT("security.responsesSent", Unit.PACKETS, Kind.COUNTER, Scope.ENDPOINT, Labels.NONE,
            "RESPONSE packets sent as a client"),
    /** RESPONSEs ignored as a server (none challenged for, already authenticated, or given up). */
    SECURITY_RESPONSES_IGNORED("security.responsesIgnored", Unit.PACKETS, Kind.COUNTER, Scope.ENDPOINT,
            Labels.NONE, "RESPONSEs ignored as a server (none challenged for, already authenticated, or given up)"),
    /** RESPONSEs the security class refused (each aborted its connection). */
    SECURITY_RESPONSES_REFUSED("security.responsesRefused", Unit.PACKETS, Kind.COUNTER, Scope.ENDPOINT,
            Labels.NONE, "RESPONSEs the security class refused (each aborted its connection)"),
    /** Server connections given up after the most CHALLENGEs went unanswered. */
    SECURITY_HANDSHAKES_ABANDONED("security.handshakesAbandoned", Unit.CONNECTIONS, Kind.COUNTER, Scope.ENDPOINT,
            Labels.NONE, "server connections given up after the most CHALLENGEs went unanswered"),
    /** DATA packets refused: a failed check (the connection aborted), or none parked before authentication. */
    SECURITY_PACKETS_REFUSED("security.packetsRefused", Unit.PACKETS, Kind.COUNTER, Scope.ENDPOINT, Labels.NONE,
            "DATA packets refused: a failed check (the connection aborted), or none parked before authentication"),

    /** UDP datagrams read from the socket. */
    DATAGRAMS_RECEIVED("datagramsReceived", Unit.DATAGRAMS, Kind.COUNTER, Scope.ENDPOINT, Labels.NONE,
            "UDP datagrams read from the socket"),
    /** UDP datagrams handed to the socket. */
    DATAGRAMS_SENT("datagramsSent", Unit.DATAGRAMS, Kind.COUNTER, Scope.ENDPOINT, Labels.NONE,
            "UDP datagrams handed to the socket"),
    /** Datagram writes the socket reported as failed. */
    SEND_FAILURES("sendFailures", Unit.DATAGRAMS, Kind.COUNTER, Scope.ENDPOINT, Labels.NONE,
            "datagram writes the socket reported as failed"),
    /** Datagrams dropped because they did not decode, by decode error ({@code DECODER_FAILURE}: the decoder threw). */
    MALFORMED_DATAGRAMS("malformedDatagrams", Unit.DATAGRAMS, Kind.COUNTER, Scope.ENDPOINT, Labels.DECODE_ERROR,
            "datagrams dropped because they did not decode, by decode error (DECODER_FAILURE: the decoder threw)"),
    /** Datagrams the engine threw on. */
    ENGINE_FAILURES("engineFailures", Unit.DATAGRAMS, Kind.COUNTER, Scope.ENDPOINT, Labels.NONE,
            "datagrams the engine threw on"),
    /** Tasks submitted to the event loop that threw. */
    TASK_FAILURES("taskFailures", Unit.EVENTS, Kind.COUNTER, Scope.ENDPOINT, Labels.NONE,
            "tasks run on the event loop that threw"),
    /** Call events whose listener (or service handler) threw: each such call is aborted with RX_INVALID_OPERATION (−2). */
    LISTENER_FAILURES("listenerFailures", Unit.EVENTS, Kind.COUNTER, Scope.ENDPOINT, Labels.NONE,
            "call events whose listener threw (the call is aborted with RX_INVALID_OPERATION)"),
    /** Engine timer runs that threw. */
    TIMER_FAILURES("timerFailures", Unit.EVENTS, Kind.COUNTER, Scope.ENDPOINT, Labels.NONE,
            "engine timer runs that threw"),
    /** Errors the socket reported. */
    SOCKET_ERRORS("socketErrors", Unit.EVENTS, Kind.COUNTER, Scope.ENDPOINT, Labels.NONE,
            "errors the socket reported"),
    /** UDP GSO sends, each several of the datagrams sent. */
    SEGMENTED_SENDS("segmentedSends", Unit.EVENTS, Kind.COUNTER, Scope.ENDPOINT, Labels.NONE,
            "UDP GSO sends, each several of the datagrams sent"),
    /** GSO sends the kernel refused, sent again one by one. */
    SEGMENTATION_FALLBACKS("segmentationFallbacks", Unit.EVENTS, Kind.COUNTER, Scope.ENDPOINT, Labels.NONE,
            "GSO sends the kernel refused, sent again one datagram at a time");

    /** What a counter counts in. */
    public enum Unit {
        /** Bytes. */
        BYTES,
        /** Rx packets (a jumbogram's sub-packets one each unless the counter says otherwise). */
        PACKETS,
        /** UDP datagrams. */
        DATAGRAMS,
        /** Calls. */
        CALLS,
        /** Connections. */
        CONNECTIONS,
        /** Source addresses (host and port). */
        SOURCES,
        /** Occurrences of what the description names. */
        EVENTS;

        /** @return the unit's name in lower case, as JMX's "units" descriptor field carries it */
        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** How a counter's value moves and how several holders' values combine into a total. */
    public enum Kind {
        /** Only grows, from 0 when the endpoint opened; totals sum. */
        COUNTER,
        /** A level when the snapshot was taken; totals sum. */
        GAUGE,
        /** The largest value seen since the endpoint opened; totals take the largest. */
        MAXIMUM
    }

    /** Where a counter is kept. */
    public enum Scope {
        /** Per connection and per peer as well as in the endpoint's totals ({@code ConnectionStats.counters()}). */
        CONNECTION,
        /** In the endpoint's totals only. */
        ENDPOINT
    }

    /** The label sets of labelled counters (one slot per label). */
    private enum Labels {
        NONE(List.of()),
        /** Packet type codes 0..15 (15: every other code), named as rx-wire-facts.md §2 names them. */
        PACKET_TYPE(packetTypes()),
        /** ACK reason codes 0..{@code AckReason.COUNT - 1}, named as OpenAFS prints them. */
        ACK_REASON(ackReasons()),
        /** The wire decoder's reasons to drop a datagram, then DECODER_FAILURE (the decoder itself threw). */
        DECODE_ERROR(decodeErrors());

        final List<String> names;

        Labels(List<String> names) {
            this.names = names;
        }

        private static List<String> packetTypes() {
            List<String> l = new ArrayList<>();
            for (int t = 0; t < 16; t++) {
                String n = PacketType.name(t);
                l.add(l.contains(n) ? "type" + t : n); // types 9..11 share OpenAFS's PARAMS name
            }
            return List.copyOf(l);
        }

        private static List<String> ackReasons() {
            List<String> l = new ArrayList<>();
            for (int r = 0; r < AckReason.COUNT; r++) {
                l.add(AckReason.name(r));
            }
            return List.copyOf(l);
        }

        private static List<String> decodeErrors() {
            List<String> l = new ArrayList<>();
            for (DecodeError e : DecodeError.values()) {
                l.add(e.name());
            }
            l.add("DECODER_FAILURE");
            return List.copyOf(l);
        }
    }

    private final String key;
    private final Unit unit;
    private final Kind kind;
    private final Scope scope;
    private final Labels labels;
    private final String description;

    RxCounter(String key, Unit unit, Kind kind, Scope scope, Labels labels, String description) {
        this.key = key;
        this.unit = unit;
        this.kind = kind;
        this.scope = scope;
        this.labels = labels;
        this.description = description;
    }

    /**
     * @return the counter's name in {@code RxEndpoint.stats()}, {@code rxperf -D} and JMX, e.g. {@code resends};
     *     a label's entry is {@code key + "." + label}, e.g. {@code packetsSent.DATA}
     */
    public String key() {
        return key;
    }

    /** @return what the value counts in */
    public Unit unit() {
        return unit;
    }

    /** @return how the value moves and combines */
    public Kind kind() {
        return kind;
    }

    /** @return where the counter is kept */
    public Scope scope() {
        return scope;
    }

    /**
     * @return the names of a labelled counter's slots, by code (packet types by type code, ACK reasons by reason
     *     code, decode errors by declaration order); empty for a counter with one value
     */
    public List<String> labels() {
        return labels.names;
    }

    /** @return one sentence saying what is counted, for JMX and generated docs */
    public String description() {
        return description;
    }
}
