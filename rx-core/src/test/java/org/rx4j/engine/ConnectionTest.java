// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine;

import org.rx4j.config.RxConfig;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.rx4j.engine.EngineHarness.MS;
import static org.rx4j.engine.EngineHarness.REMOTE;
import static org.rx4j.engine.EngineHarness.REMOTE2;

import io.netty.buffer.UnpooledByteBufAllocator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.rx4j.counters.RxCounter;
import org.rx4j.engine.RecordingApps.Client;
import org.rx4j.engine.RecordingApps.Service;
import org.rx4j.engine.call.CallState;
import org.rx4j.engine.connection.Connection;
import org.rx4j.engine.output.PacketSink;
import org.rx4j.wire.AckReason;
import org.rx4j.wire.DataPacket;
import org.rx4j.wire.PacketFlags;

/**
 * Connection identity and lookup (rx-wire-facts.md §1 epoch/cid, §7 lookup rules) and the 4 channels of a
 * client connection.
 */
class ConnectionTest {
    private static final int SVC = 147;
    private static final RxConfig NO_REACH = RxConfig.builder().checkReach(false).build();

    @Test
    void epochHasBit31SetAndBit30ClearAndIsOtherwiseRandom() {
        PacketSink none = new PacketSink() {
            @Override
            public void send(java.net.InetSocketAddress peer, org.rx4j.wire.RxPacket packet) {
                packet.release();
            }

            @Override
            public void sendJumbogram(java.net.InetSocketAddress peer, List<DataPacket> packets) {
                packets.forEach(DataPacket::release);
            }
        };
        Set<Integer> epochs = new HashSet<>();
        int anyBits = 0;
        int allBits = -1;
        for (long seed = 0; seed < 2000; seed++) {
            int epoch = new RxEngine(RxConfig.defaults(), none, UnpooledByteBufAllocator.DEFAULT, seed, 0).epoch();
            assertTrue(epoch < 0, "bit 31 must be set: " + Integer.toHexString(epoch));
            assertEquals(0, epoch & 0x40000000, "bit 30 must be clear: " + Integer.toHexString(epoch));
            epochs.add(epoch);
            anyBits |= epoch & 0x3FFFFFFF;
            allBits &= epoch & 0x3FFFFFFF;
        }
        assertTrue(epochs.size() > 1990, "epochs should be random, distinct: " + epochs.size());
        assertEquals(0x3FFFFFFF, anyBits, "every low bit should vary");
        assertEquals(0, allBits, "no low bit should be stuck at 1");

        EngineHarness h = new EngineHarness(RxConfig.defaults());
        Connection conn = h.engine.connect(REMOTE, SVC, 0);
        new Client(() -> h.now, 10).start(h.engine, conn);
        DataPacket d = h.dataSent().get(0);
        assertEquals(h.engine.epoch(), d.header().epoch(), "the client's DATA carries the engine's epoch");
        assertEquals(conn.epoch(), d.header().epoch());
    }

    @Test
    void connectionIdsHaveChannelBitsClearAndStepByFour() {
        EngineHarness h = new EngineHarness(RxConfig.defaults());
        Connection first = h.engine.connect(REMOTE, SVC, 0);
        int prev = first.cid();
        assertEquals(0, prev & 3);
        for (int i = 0; i < 1000; i++) {
            Connection c = h.engine.connect(REMOTE, SVC, 0);
            assertEquals(0, c.cid() & 3, "channel bits must be clear");
            assertEquals((prev + 4) & 0x7FFFFFFC, c.cid(), "ids step by 4");
            prev = c.cid();
        }
        // On the wire, cid = connection id | channel.
        Connection conn = h.engine.connect(REMOTE, SVC, 0);
        for (int i = 0; i < 4; i++) {
            new Client(() -> h.now, 10).start(h.engine, conn);
        }
        Set<Integer> cids = new TreeSet<>();
        for (DataPacket d : h.dataSent()) {
            cids.add(d.header().cid());
            assertEquals(conn.cid(), d.header().connectionId());
        }
        assertEquals(Set.of(conn.cid(), conn.cid() | 1, conn.cid() | 2, conn.cid() | 3), cids);
    }

    @Test
    void connectionIdsInUseAreNotRepeatedAfterTheCounterWraps() {
        EngineHarness h = new EngineHarness(RxConfig.defaults());
        h.engine.nextConnectionId(0);
        Connection a = h.engine.connect(REMOTE, SVC, 0);
        Connection b = h.engine.connect(REMOTE, SVC, 0);
        Connection c = h.engine.connect(REMOTE, SVC, 0);
        assertEquals(List.of(0, 4, 8), List.of(a.cid(), b.cid(), c.cid()));
        h.engine.closeConnection(h.now, b);

        h.engine.nextConnectionId(0x7FFFFFF8);
        Connection d = h.engine.connect(REMOTE, SVC, 0);
        Connection e = h.engine.connect(REMOTE, SVC, 0);
        Connection f = h.engine.connect(REMOTE, SVC, 0);
        Connection g = h.engine.connect(REMOTE, SVC, 0);
        assertEquals(0x7FFFFFF8, d.cid());
        assertEquals(0x7FFFFFFC, e.cid());
        assertEquals(4, f.cid(), "after the wrap, id 0 (still in use) is skipped; 4 was closed");
        assertEquals(12, g.cid(), "8 is still in use");

        // Churn across the wrap point: live ids never collide, every id keeps its channel bits clear.
        h.engine.nextConnectionId(0x7FFFFF00);
        List<Connection> live = new java.util.ArrayList<>(List.of(a, c, d, e, f, g));
        java.util.SplittableRandom rnd = new java.util.SplittableRandom(7);
        for (int i = 0; i < 5000; i++) {
            if (!live.isEmpty() && rnd.nextInt(3) == 0) {
                h.engine.closeConnection(h.now, live.remove(rnd.nextInt(live.size())));
            } else {
                Connection n = h.engine.connect(REMOTE, SVC, 0);
                assertEquals(0, n.cid() & 3);
                for (Connection l : live) {
                    assertNotEquals(l.cid(), n.cid(), "id " + n.cid() + " repeats a live connection's id");
                }
                live.add(n);
            }
            if (i % 500 == 0) {
                h.engine.nextConnectionId(0x7FFFFF00 + 4 * rnd.nextInt(64));
            }
        }
        assertEquals(live.size(), h.engine.clientConnections().size());
    }

    @Test
    void serverConnectionWithEpochBit31SetMatchesFromAnyAddressButStaysAtItsOwn() {
        EngineHarness h = new EngineHarness(NO_REACH);
        Service svc = new Service(() -> h.now, -1);
        h.engine.registerService(SVC, 0, svc);
        FakePeer client = FakePeer.client(0x81234560, 0x40, SVC);
        h.deliverFrom(REMOTE, client.data(0, 1, 1, 0, 1412));
        h.deliverFrom(REMOTE2, client.data(0, 1, 2, PacketFlags.LAST_PACKET, 100));
        assertEquals(1, h.engine.serverConnections().size(), "same epoch+cid from a new address: same connection");
        assertEquals(1, svc.newCalls());
        assertTrue(svc.record(0).readComplete);
        assertEquals(1512, svc.record(0).bytesRead);
        long dropped = h.engine.totals().get(RxCounter.DROPPED_PACKETS);
        h.deliverFrom(REMOTE2, client.ack(0, 1, 1, 2, 0, AckReason.DELAY, new byte[0], 32, 1));
        assertEquals(dropped, h.engine.totals().get(RxCounter.DROPPED_PACKETS), "an ACK from the new address reaches the call too");
        // Nothing proves who sent them (rxnull): the connection does not move (docs/robustness.md, "Rule: a server
        // connection's address never moves on an unauthenticated packet").
        assertEquals(REMOTE, h.engine.serverConnections().iterator().next().peer().address(),
                "the connection stays at its client's first address");
        assertEquals(2, h.engine.totals().get(RxCounter.ADDRESS_CHANGES_REFUSED));
        h.clear();
        h.deliverFrom(REMOTE2, client.ping(0, 1));
        assertFalse(h.sent.isEmpty(), "the ping is answered");
        for (EngineHarness.Datagram d : h.sent) {
            assertEquals(REMOTE, d.to(), "replies keep going to the connection's address");
        }
    }

    @Test
    void serverConnectionWithEpochBit31ClearNeedsTheSameAddress() {
        EngineHarness h = new EngineHarness(NO_REACH);
        Service svc = new Service(() -> h.now, -1);
        h.engine.registerService(SVC, 0, svc);
        FakePeer client = FakePeer.client(0x12345670, 0x40, SVC);
        h.deliverFrom(REMOTE, client.data(0, 1, 1, 0, 1412));
        assertEquals(1, svc.newCalls());

        long dropped = h.engine.totals().get(RxCounter.DROPPED_PACKETS);
        h.deliverFrom(REMOTE2, client.ack(0, 1, 1, 1, 0, AckReason.DELAY, new byte[0], 32, 1));
        assertEquals(dropped + 1, h.engine.totals().get(RxCounter.DROPPED_PACKETS),
                "an ACK from another address finds no connection");

        // DATA from another address is another connection (and so another call).
        h.deliverFrom(REMOTE2, client.data(0, 1, 2, PacketFlags.LAST_PACKET, 100));
        assertEquals(2, h.engine.serverConnections().size());
        assertEquals(1, svc.newCalls(), "a call holding only seq 2 is held, not started");
        assertEquals(1, h.engine.totals().get(RxCounter.HELD_SERVER_CALLS));
        assertFalse(svc.record(0).readComplete);
        assertEquals(1412, svc.record(0).bytesRead);

        // From the original address the request completes on the first connection.
        h.deliverFrom(REMOTE, client.data(0, 1, 2, PacketFlags.LAST_PACKET, 100));
        assertTrue(svc.record(0).readComplete);
        assertEquals(1512, svc.record(0).bytesRead);
    }

    @Test
    void lookupHonoursDirectionAndSecurityIndex() {
        EngineHarness h = new EngineHarness(NO_REACH);
        Service svc = new Service(() -> h.now, -1);
        h.engine.registerService(SVC, 0, svc);
        FakePeer client = FakePeer.client(0x81234560, 0x40, SVC);
        h.deliver(client.data(0, 1, 1, 0, 1412));
        assertEquals(1, svc.newCalls());

        // Without CLIENT_INITIATED the packet is looked up among client connections: no match.
        long dropped = h.engine.totals().get(RxCounter.DROPPED_PACKETS);
        FakePeer wrongWay = FakePeer.server(client.epoch, client.cid, SVC);
        wrongWay.serial = 100;
        h.deliver(wrongWay.data(0, 1, 2, PacketFlags.LAST_PACKET, 100));
        assertEquals(dropped + 1, h.engine.totals().get(RxCounter.DROPPED_PACKETS));
        // Another security index on the same epoch+cid is dropped.
        h.deliver(client.withSecurityIndex(2).data(0, 1, 2, PacketFlags.LAST_PACKET, 100));
        assertEquals(dropped + 2, h.engine.totals().get(RxCounter.DROPPED_PACKETS));
        assertFalse(svc.record(0).readComplete);
        assertEquals(1, h.engine.serverConnections().size());

        h.deliver(client.data(0, 1, 2, PacketFlags.LAST_PACKET, 100));
        assertTrue(svc.record(0).readComplete);
    }

    @Test
    void clientConnectionTakesRepliesOnlyFromItsServerAndOnlyWithItsEpoch() {
        EngineHarness h = new EngineHarness(RxConfig.defaults());
        Connection conn = h.engine.connect(REMOTE, SVC, 0);
        Client c = new Client(() -> h.now, 10);
        c.start(h.engine, conn);
        FakePeer wrongEpoch = FakePeer.server(conn.epoch() ^ 0x10, conn.cid(), SVC);
        long dropped = h.engine.totals().get(RxCounter.DROPPED_PACKETS);
        h.deliverFrom(REMOTE, wrongEpoch.data(0, 1, 1, PacketFlags.LAST_PACKET, 10));
        assertEquals(dropped + 1, h.engine.totals().get(RxCounter.DROPPED_PACKETS));
        assertFalse(c.completed);
        // Epoch bit 31 is the server's rule for its clients; a client knows its server's address (docs/robustness.md,
        // "Rule: a client connection hears only its server's address").
        FakePeer server = FakePeer.serverOf(conn);
        h.deliverFrom(REMOTE2, server.data(0, 1, 1, PacketFlags.LAST_PACKET, 10));
        assertEquals(dropped + 2, h.engine.totals().get(RxCounter.DROPPED_PACKETS));
        assertEquals(1, h.engine.totals().get(RxCounter.CLIENT_PACKETS_FROM_STRANGERS));
        assertFalse(c.completed);
        h.deliverFrom(REMOTE, server.data(0, 1, 1, PacketFlags.LAST_PACKET, 10));
        assertTrue(c.completed);
        assertEquals(0, c.code);
        assertEquals(10, c.bytesRead);
    }

    @Test
    void fourCallsShareAConnectionAndAFifthWaitsForAFreeChannel() {
        EngineHarness h = new EngineHarness(RxConfig.defaults());
        Connection conn = h.engine.connect(REMOTE, SVC, 0);
        Client[] clients = new Client[5];
        for (int i = 0; i < 5; i++) {
            clients[i] = new Client(() -> h.now, 100);
            clients[i].start(h.engine, conn);
        }
        for (int i = 0; i < 4; i++) {
            assertEquals(CallState.ACTIVE, clients[i].call.state());
            assertEquals(i, clients[i].call.channel());
            assertEquals(1, clients[i].call.callNumber());
            assertEquals(clients[i].call, conn.call(i));
        }
        assertEquals(CallState.WAITING, clients[4].call.state());
        assertEquals(1, conn.waitingCalls());
        Set<Integer> channels = new TreeSet<>();
        for (DataPacket d : h.dataSent()) {
            channels.add(d.header().channel());
        }
        assertEquals(Set.of(0, 1, 2, 3), channels, "all 4 channels carry a request at once");
        assertEquals(4, h.dataSent().size(), "the waiting call sends nothing");

        h.clear();
        h.advance(MS);
        assertEquals(CallState.WAITING, clients[4].call.state());
        FakePeer server = FakePeer.serverOf(conn);
        h.deliver(server.data(2, 1, 1, PacketFlags.LAST_PACKET, 30));
        assertTrue(clients[2].completed);
        assertEquals(0, clients[2].code);

        assertEquals(CallState.ACTIVE, clients[4].call.state(), "the waiting call takes the freed channel");
        assertEquals(2, clients[4].call.channel());
        assertEquals(2, clients[4].call.callNumber());
        assertEquals(0, conn.waitingCalls());
        List<DataPacket> data = h.dataSent();
        assertEquals(1, data.size());
        assertEquals(2, data.get(0).header().channel());
        assertEquals(2, data.get(0).header().callNumber());
        assertEquals(100, data.get(0).payload().readableBytes());
        for (int i : new int[] {0, 1, 3}) {
            assertEquals(CallState.ACTIVE, clients[i].call.state());
        }
    }
}
