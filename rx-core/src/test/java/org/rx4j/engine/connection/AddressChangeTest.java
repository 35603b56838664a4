// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine.connection;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.rx4j.engine.EngineHarness.REMOTE;
import static org.rx4j.engine.EngineHarness.REMOTE2;
import static org.rx4j.engine.EngineHarness.S;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.rx4j.config.RxConfig;
import org.rx4j.counters.RxCounter;
import org.rx4j.engine.EngineHarness;
import org.rx4j.engine.FakePeer;
import org.rx4j.engine.LinkModel;
import org.rx4j.engine.RecordingApps.Client;
import org.rx4j.engine.RecordingApps.Service;
import org.rx4j.engine.SimApps;
import org.rx4j.engine.SimNetwork;
import org.rx4j.engine.security.RxkadTestCredentials;
import org.rx4j.security.rxkad.RxkadLevel;
import org.rx4j.wire.AbortCodes;
import org.rx4j.wire.AckPacket;
import org.rx4j.wire.AckReason;
import org.rx4j.wire.DataPacket;
import org.rx4j.wire.PacketDecoder;
import org.rx4j.wire.PacketEncoder;
import org.rx4j.wire.PacketFlags;
import org.rx4j.wire.RxPacket;

/**
 * Packets that carry a connection's ids from an address other than the connection's (docs/robustness.md, "Rule: a
 * server connection's address never moves on an unauthenticated packet" and "Rule: a client connection hears only
 * its server's address"): a server connection processes them where it is and sends nothing to the new address; a
 * client connection drops them.
 */
class AddressChangeTest {
    private static final int SVC = 147;
    private static final RxConfig NO_REACH = RxConfig.builder().checkReach(false).build();
    /** An OpenAFS 1.8 client's epoch: bit 31 set, so the server matches it from any address (§7). */
    private static final int ANY_ADDRESS_EPOCH = 0x81234560;
    private static final int REPLY_BYTES = 200_000;

    @Test
    void aSpoofedAckFromANewPortNeitherMovesTheServerConnectionNorEarnsTheNewPortAByte() {
        EngineHarness h = new EngineHarness(NO_REACH);
        Service svc = new Service(() -> h.now, REPLY_BYTES);
        h.engine.registerService(SVC, 0, svc);
        FakePeer client = FakePeer.client(ANY_ADDRESS_EPOCH, 0x40, SVC);
        h.deliver(client.data(0, 1, 1, PacketFlags.LAST_PACKET, 100));
        assertEquals(1, svc.newCalls());
        int firstBurst = h.dataSent().size();
        assertTrue(firstBurst > 0, "the reply started");
        Connection conn = h.engine.serverConnections().iterator().next();
        long peerBytes = conn.peer().counters().get(RxCounter.BYTES_RECEIVED);

        // The spoofer acks everything sent so far and asks for a PING answer: the ACK is the call's (epoch bit 31
        // matches from any address), so the call goes on, but towards the connection's own address.
        h.clear();
        AckPacket spoofed = client.ack(0, 1, firstBurst + 1, firstBurst, 0, AckReason.PING, new byte[0], 4, 32, 1,
                PacketFlags.REQUEST_ACK);
        h.deliverFrom(REMOTE2, spoofed);
        h.advance(2 * S);

        assertEquals(REMOTE, conn.peer().address(), "the connection stays at its address");
        assertEquals(1, h.engine.totals().get(RxCounter.ADDRESS_CHANGES_REFUSED));
        assertEquals(peerBytes, conn.peer().counters().get(RxCounter.BYTES_RECEIVED),
                "the spoofer's bytes are not the peer's: they pay for no reply to it");
        assertFalse(h.dataSent().isEmpty(), "the ACK was processed: more of the reply went out");
        assertEquals(0, sentTo(h, REMOTE2), "nothing goes to the new address");
        assertTrue(sentTo(h, REMOTE) > 0);
        assertFalse(svc.record(0).completed, "the reply is still unacknowledged by the real client");
    }

    @Test
    void aSpoofedPingIsAnsweredToTheConnectionsAddressAndTheRealClientFinishesItsCall() {
        EngineHarness h = new EngineHarness(NO_REACH);
        Service svc = new Service(() -> h.now, 3000);
        h.engine.registerService(SVC, 0, svc);
        FakePeer client = FakePeer.client(ANY_ADDRESS_EPOCH, 0x40, SVC);
        h.deliver(client.data(0, 1, 1, PacketFlags.LAST_PACKET, 100));
        int lastSeq = 0;
        for (DataPacket d : h.dataSent()) {
            lastSeq = Math.max(lastSeq, d.header().seq());
        }
        assertEquals(3, lastSeq, "the whole reply went out at once");
        h.clear();
        h.deliverFrom(REMOTE2, client.ping(0, 1));
        assertEquals(1, sentTo(h, REMOTE), "the PING is answered, to the connection's address");
        h.deliver(client.ack(0, 1, lastSeq + 1, lastSeq, 0, AckReason.DELAY, new byte[0], 32, 1));
        h.advance(S);
        assertTrue(svc.record(0).completed);
        assertEquals(0, svc.record(0).code);
        assertEquals(0, sentTo(h, REMOTE2));
        assertEquals(1, h.engine.totals().get(RxCounter.ADDRESS_CHANGES_REFUSED));
    }

    @Test
    void aDataPacketRxkadVerifiedFromAnotherAddressDoesNotMoveTheServerConnectionEither() {
        // rxkad auth binds every DATA packet to the session key, yet no packet moves a server connection, as in
        // OpenAFS (§7): the client's own packet, replayed from another address, passes the check and stays put.
        SimNetwork net = new SimNetwork(RxConfig.defaults(), RxConfig.defaults(), LinkModel.delay(5_000_000L),
                LinkModel.delay(5_000_000L), 3);
        SimApps.BulkServer server = new SimApps.BulkServer(net);
        net.server().engine.registerService(SVC, RxkadTestCredentials.server(RxkadLevel.AUTH), server);
        SimNetwork.Endpoint elsewhere = net.addClient(RxConfig.defaults());
        List<byte[]> clientData = new ArrayList<>();
        net.sendTap = (now, fromClient, packets) -> {
            if (fromClient && packets.size() == 1 && packets.get(0) instanceof DataPacket d) {
                ByteBuf b = Unpooled.buffer();
                PacketEncoder.encode(d, b);
                byte[] bytes = new byte[b.readableBytes()];
                b.readBytes(bytes);
                b.release();
                clientData.add(bytes);
            }
        };
        Connection conn = net.client().engine.connect(SimNetwork.SERVER, SVC,
                RxkadTestCredentials.client(RxkadLevel.AUTH));
        SimApps.BulkClient c = new SimApps.BulkClient(net, 1000, 1000);
        c.start(conn);
        assertTrue(net.runUntil(() -> c.done, 60 * S), "the call did not end");
        assertEquals(0, c.error);
        assertFalse(clientData.isEmpty(), "the client sent a DATA packet alone");
        Connection serverConn = net.server().engine.serverConnections().iterator().next();

        List<RxPacket> replay = new ArrayList<>();
        ByteBuf datagram = Unpooled.wrappedBuffer(clientData.get(0));
        assertEquals(null, PacketDecoder.decode(datagram, replay));
        datagram.release();
        net.server().engine.onDatagram(net.now(), elsewhere.address(), replay);
        net.runFor(2 * S);

        assertEquals(0, net.server().engine.totals().get(RxCounter.SECURITY_PACKETS_REFUSED), "its checksum verified");
        assertEquals(1, net.server().engine.totals().get(RxCounter.ADDRESS_CHANGES_REFUSED));
        assertEquals(SimNetwork.CLIENT, serverConn.peer().address(), "the connection stays at its address");
        assertEquals(0, elsewhere.engine.totals().get(RxCounter.DROPPED_PACKETS), "nothing reached the other address");
        net.shutdown();
    }

    @Test
    void packetsFromStrangersNeitherEndNorAnswerAClientCall() {
        EngineHarness h = new EngineHarness(RxConfig.defaults());
        Connection conn = h.engine.connect(REMOTE, SVC, 0);
        Client c = new Client(() -> h.now, 10);
        c.start(h.engine, conn);
        FakePeer server = FakePeer.serverOf(conn);
        InetSocketAddress samePortOtherHost = new InetSocketAddress("10.0.0.9", REMOTE.getPort());
        InetSocketAddress sameHostOtherPort = new InetSocketAddress(REMOTE.getAddress(), REMOTE.getPort() + 1);
        long dropped = h.engine.totals().get(RxCounter.DROPPED_PACKETS);
        h.deliverFrom(sameHostOtherPort, server.abort(0, 1, AbortCodes.RX_CALL_DEAD));
        h.deliverFrom(REMOTE2, server.abort(0, 1, AbortCodes.RX_CALL_DEAD));
        h.deliverFrom(samePortOtherHost, server.abort(0, 0, AbortCodes.RX_CALL_DEAD));
        h.deliverFrom(samePortOtherHost, server.data(0, 1, 1, PacketFlags.LAST_PACKET, 10));
        assertFalse(c.completed, "no stranger's packet ends or answers the call");
        assertEquals(4, h.engine.totals().get(RxCounter.CLIENT_PACKETS_FROM_STRANGERS));
        assertEquals(dropped + 4, h.engine.totals().get(RxCounter.DROPPED_PACKETS));

        h.deliver(server.data(0, 1, 1, PacketFlags.LAST_PACKET, 10));
        assertTrue(c.completed, "the server's own reply ends it");
        assertEquals(0, c.code);
        assertEquals(10, c.bytesRead);
    }

    private static int sentTo(EngineHarness h, InetSocketAddress to) {
        int n = 0;
        for (EngineHarness.Datagram d : h.sent) {
            if (d.to().equals(to)) {
                n++;
            }
        }
        return n;
    }
}
