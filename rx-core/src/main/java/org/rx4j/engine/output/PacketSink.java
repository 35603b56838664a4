// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine.output;

import java.net.InetSocketAddress;
import java.util.List;
import org.rx4j.config.DebugReplies;
import org.rx4j.wire.DataPacket;
import org.rx4j.wire.RxPacket;

/**
 * Where the engine's output goes: the transport (a Netty channel) or the test simulator.
 * Called only on the thread that owns the engine.
 */
public interface PacketSink {
    /**
     * Sends one packet as one datagram.
     *
     * <p>Ownership: the sink takes the packet; it releases it (for DATA, its payload reference) once
     * encoded, also when sending fails. A DATA payload is the send queue's own buffer with one more reference
     * (kept for retransmission): the sink reads it without moving its reader or writer index (as
     * {@link org.rx4j.wire.PacketEncoder} does).
     *
     * @param peer destination address
     * @param packet the packet
     */
    void send(InetSocketAddress peer, RxPacket packet);

    /**
     * Sends 2..46 DATA packets of one call as one jumbogram (rx-wire-facts.md §4); see
     * {@link org.rx4j.wire.PacketEncoder#encodeJumbogram} for the rules the packets follow.
     *
     * <p>Ownership: the sink takes every packet of the list (not the list, which the engine reuses
     * after the call returns); payloads are read without moving their indexes, as in {@link #send}.
     *
     * @param peer destination address
     * @param packets the sub-packets in order
     */
    void sendJumbogram(InetSocketAddress peer, List<DataPacket> packets);

    /**
     * Whether this sink is done with the packet objects it gets (headers, ACK soft-ack arrays) when {@link #send}
     * returns, because it encoded or copied them by then (payload references aside, which it owns as above). When true,
     * the engine hands it the same reused packet objects again and again for the ACKs and DATA packets it sends
     * ({@link org.rx4j.wire.OutboundPackets}; docs/benchmarks.md "Allocation per packet"). Asked once, when the engine
     * is built.
     *
     * @return true when packets are not kept past {@code send}; false (the default) when the sink may keep them
     *     (a recorder, a queue), so that every packet is a new object
     */
    default boolean encodesOnSend() {
        return false;
    }

    /**
     * The MTU of the local interface the route to {@code peer} leaves by: what packet size this endpoint can send it
     * without IP fragmentation and advertises to it (docs/engine.md "Packet size"). Asked once per new peer, on the
     * engine's thread, so it must be cheap (no system call per peer under a flood of new sources).
     *
     * @param peer the peer's address
     * @return bytes (IP packet size, e.g. 1500 for Ethernet, 65536 for Linux loopback); 0 when unknown (the default:
     *     the peer then gets OpenAFS's 1,444-byte packets)
     */
    default int routeMtu(InetSocketAddress peer) {
        return 0;
    }

    /**
     * The UDP receive buffer the kernel granted this endpoint's socket (the size as asked; Linux keeps twice that for
     * its bookkeeping). A full window of the largest packets must fit in it, or a burst overflows it: the engine caps
     * the packet size it advertises to a peer at this / maxRwind (docs/engine.md "Packet size"). Asked once per new
     * peer, on the engine's thread.
     *
     * @return bytes; 0 when unknown (the default: no cap)
     */
    default int receiveBufferBytes() {
        return 0;
    }

    /**
     * Told that the engine withheld its answer to an rxdebug query (DEBUG or VERSION) because the debug-reply policy
     * does not allow a reply larger than the query to that address (docs/robustness.md, "Rule: unsolicited traffic,
     * loops and amplification"): for the first such query and again each time the count reaches a power of ten, so
     * that an owner learns why rxdebug gets no answer without a flood of queries flooding the log. The default does
     * nothing. Engine thread.
     *
     * @param querier the address the query came from
     * @param policy the policy that withheld the reply
     * @param withheld rxdebug replies withheld so far by this endpoint
     */
    default void debugReplyWithheld(InetSocketAddress querier, DebugReplies policy, long withheld) {
    }
}
