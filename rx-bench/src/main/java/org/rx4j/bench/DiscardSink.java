// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.bench;

import java.net.InetSocketAddress;
import java.util.List;
import org.rx4j.engine.output.PacketSink;
import org.rx4j.wire.AckPacket;
import org.rx4j.wire.AckReason;
import org.rx4j.wire.DataPacket;
import org.rx4j.wire.PacketType;
import org.rx4j.wire.RxHeader;
import org.rx4j.wire.RxPacket;

/**
 * A {@link PacketSink} for engine benchmarks: it counts the packets by type, remembers the last DATA header sent
 * (the ACK benchmark acknowledges up to it) and the last reachability PING's serial and releases every packet without encoding it, so that a benchmark
 * measures the engine alone (the codec has its own benchmark). Engine thread only.
 */
final class DiscardSink implements PacketSink {
    /** Packets sent, indexed by packet type (0..255). */
    final long[] sent = new long[256];
    // The last DATA packet sent (jumbogram sub-packets included; 0 before the first): fields, not its header, so
    // that the sink keeps no packet object (it says it encodes on send).
    int lastDataEpoch;
    int lastDataCid;
    int lastDataCallNumber;
    int lastDataSeq;
    int lastDataSerial;
    /** The header serial of the last ACK with reason PING sent (a reachability check), or 0. */
    int lastPingSerial;

    @Override
    public void send(InetSocketAddress peer, RxPacket packet) {
        RxHeader h = packet.header();
        sent[h.type()]++;
        if (h.type() == PacketType.DATA) {
            lastDataEpoch = h.epoch();
            lastDataCid = h.cid();
            lastDataCallNumber = h.callNumber();
            lastDataSeq = h.seq();
            lastDataSerial = h.serial();
        } else if (packet instanceof AckPacket a && a.reason() == AckReason.PING) {
            lastPingSerial = h.serial();
        }
        packet.release();
    }

    /** @return true: nothing is kept past {@link #send}, so the engine may reuse its ACK object */
    @Override
    public boolean encodesOnSend() {
        return true;
    }

    @Override
    public void sendJumbogram(InetSocketAddress peer, List<DataPacket> packets) {
        int n = packets.size();
        for (int i = 0; i < n; i++) {
            send(peer, packets.get(i));
        }
    }
}
