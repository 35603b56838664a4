// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.rx4j.engine.EngineHarness.REMOTE;
import static org.rx4j.engine.EngineHarness.bytes;
import static org.rx4j.engine.FakePeer.acks;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.rx4j.config.RxConfig;
import org.rx4j.engine.RecordingApps.Service;
import org.rx4j.engine.call.Call;
import org.rx4j.engine.call.CallListener;
import org.rx4j.engine.connection.Connection;
import org.rx4j.engine.output.PacketSink;
import org.rx4j.testing.LeakCheckExtension;
import org.rx4j.wire.AckPacket;
import org.rx4j.wire.AckReason;
import org.rx4j.wire.DataPacket;
import org.rx4j.wire.PacketFlags;
import org.rx4j.wire.RxPacket;

/**
 * No allocation per packet on the engine's paths (docs/benchmarks.md "Allocation per packet"), pinned without
 * measuring: toward a sink that encodes on send ({@link PacketSink#encodesOnSend()}, as the transport's encoder), the
 * engine hands the same ACK object for every ACK and the same DATA object for every single-packet datagram, each
 * carrying that packet's own fields on the wire; toward a sink that may keep packets it hands new ones. The wire bytes
 * are checked through the harness, which decodes what it was sent.
 */
@ExtendWith(LeakCheckExtension.class)
class PacketReuseTest {
    private static final int SVC = 147;

    /** A server that holds (does not read) what it gets, so every ACK soft-acks the packets so far. */
    private static EngineHarness server(boolean encodesOnSend) {
        EngineHarness h = new EngineHarness(RxConfig.builder().checkReach(false).build(), 42, 0, encodesOnSend);
        Service svc = new Service(() -> h.now, -1);
        svc.reading = false;
        h.engine.registerService(SVC, 0, svc);
        return h;
    }

    /** Delivers seqs 1 and 2 with REQUEST_ACK, one datagram each: each earns one ACK (reason REQUESTED). */
    private static void twoRequestedAcks(EngineHarness h) {
        FakePeer client = FakePeer.client(0x80000010, 0x20, SVC);
        h.deliver(client.data(0, 1, 1, PacketFlags.REQUEST_ACK, 100));
        h.deliver(client.data(0, 1, 2, PacketFlags.REQUEST_ACK, 100));
    }

    @Test
    void everyAckIsTheSameObjectTowardASinkThatEncodesOnSend() {
        EngineHarness h = server(true);
        twoRequestedAcks(h);
        List<RxPacket> objects = h.objectsSent;
        assertEquals(2, objects.size(), "two ACKs: " + h.sent);
        assertInstanceOf(AckPacket.class, objects.get(0));
        assertSame(objects.get(0), objects.get(1), "the second ACK reuses the first's object");
        assertSame(objects.get(0).header(), objects.get(1).header(), "and its header");
        // On the wire each ACK is its own: what the harness decoded from the bytes it was sent.
        List<AckPacket> acks = h.acksSent();
        assertEquals(AckReason.REQUESTED, acks.get(0).reason());
        assertEquals(1, acks.get(0).previousPacket());
        assertArrayEquals(acks("+"), acks.get(0).acks());
        assertEquals(2, acks.get(1).previousPacket());
        assertArrayEquals(acks("++"), acks.get(1).acks());
        assertEquals(acks.get(0).header().serial() + 1, acks.get(1).header().serial());
    }

    @Test
    void everyAckIsANewObjectTowardASinkThatMayKeepPackets() {
        EngineHarness h = server(false);
        twoRequestedAcks(h);
        assertEquals(2, h.objectsSent.size());
        assertNotSame(h.objectsSent.get(0), h.objectsSent.get(1));
        assertEquals(h.acksSent(), List.of(h.objectsSent.get(0), h.objectsSent.get(1)),
                "the kept objects are the ACKs as sent");
    }

    @Test
    void singlePacketDatagramsReuseOneDataObjectTowardASinkThatEncodesOnSend() {
        // Jumbograms off (jumboMax 1): one DATA packet per datagram, each from DATA slot 0.
        EngineHarness h = new EngineHarness(RxConfig.builder().jumboMax(1).build(), 42, 0, true);
        Connection conn = h.engine.connect(REMOTE, SVC, 0);
        EngineHarness.fullSizeProven(conn); // the test counts full-size packets from seq 1
        Call call = h.engine.newCall(h.now, conn, CallListener.NONE);
        call.write(h.now, bytes(3 * 1416)); // three full packets (1416 data bytes each before the peer's MTU is known)
        List<RxPacket> objects = h.objectsSent;
        assertEquals(3, objects.size(), "three DATA datagrams (initial cwnd 4): " + h.sent);
        assertInstanceOf(DataPacket.class, objects.get(0));
        assertSame(objects.get(0), objects.get(1));
        assertSame(objects.get(1), objects.get(2));
        List<DataPacket> data = h.dataSent();
        for (int i = 0; i < 3; i++) {
            assertEquals(i + 1, data.get(i).header().seq(), "each datagram carries its own seq");
            assertEquals(1416, data.get(i).payload().readableBytes());
        }
        h.engine.shutdown(h.now); // releases what the call still holds
        h.sent.forEach(d -> d.packets().forEach(RxPacket::release)); // the harness's decoded copies
    }
}
