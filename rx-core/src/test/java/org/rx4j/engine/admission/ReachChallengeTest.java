// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine.admission;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.rx4j.engine.EngineHarness.MS;
import static org.rx4j.engine.EngineHarness.REMOTE;
import static org.rx4j.engine.EngineHarness.REMOTE2;
import static org.rx4j.engine.EngineHarness.S;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.rx4j.config.Reachability;
import org.rx4j.config.RxConfig;
import org.rx4j.counters.RxCounter;
import org.rx4j.engine.AdmissionTest;
import org.rx4j.engine.EngineHarness;
import org.rx4j.engine.FakePeer;
import org.rx4j.engine.LinkModel;
import org.rx4j.engine.RecordingApps.Service;
import org.rx4j.engine.RecordingApps;
import org.rx4j.engine.SimNetwork;
import org.rx4j.engine.call.Call;
import org.rx4j.engine.connection.Connection;
import org.rx4j.engine.output.RawAborts;
import org.rx4j.engine.security.RxkadTestCredentials;
import org.rx4j.security.rxkad.RxkadLevel;
import org.rx4j.wire.AckPacket;
import org.rx4j.wire.AckReason;
import org.rx4j.wire.DataPacket;
import org.rx4j.wire.PacketFlags;
import org.rx4j.wire.RxConstants;
import org.rx4j.wire.RxPacket;

/**
 * The stateless reachability challenge against a flood (docs/robustness.md "Flood"): DATA that would open a server
 * connection from a source not proven reachable makes no connection, call or peer — only a small bounded record per
 * source, answered with a reachability PING whose serial the PING_RESPONSE must echo. Virtual clock.
 */
class ReachChallengeTest {
    private static final int SVC = 147;

    private static InetSocketAddress source(int k) {
        return new InetSocketAddress("127." + (1 + k / 65536) + "." + (k / 256 % 256) + "." + (k % 256), 9000);
    }

    private static List<AckPacket> pingsTo(EngineHarness h, InetSocketAddress to) {
        List<AckPacket> out = new ArrayList<>();
        for (EngineHarness.Datagram d : h.sent) {
            if (d.to().equals(to) && d.first() instanceof AckPacket a && a.reason() == AckReason.PING) {
                out.add(a);
            }
        }
        return out;
    }

    @Test
    void anUnprovenNewConnectionDataMakesNoConnectionCallOrPeerOnlyAPing() {
        EngineHarness h = new EngineHarness(RxConfig.defaults());
        Service svc = new Service(() -> h.now, 10);
        h.engine.registerService(SVC, 0, svc);
        FakePeer c = FakePeer.client(0x7000_0001, 0x40, SVC);
        h.deliver(c.data(2, 5, 1, PacketFlags.LAST_PACKET, 100));
        assertEquals(0, h.engine.serverConnections().size());
        assertEquals(0, h.engine.peers().size());
        assertEquals(0, h.engine.totals().get(RxCounter.HELD_SERVER_CALLS));
        assertEquals(1, h.engine.totals().get(RxCounter.CHALLENGED_SOURCES));
        assertEquals(1, h.engine.totals().get(RxCounter.CHALLENGED_PACKETS));
        assertEquals(0, svc.newCalls());
        assertEquals(1, h.sent.size(), "one reply: the PING");
        AckPacket ping = (AckPacket) h.sent.get(0).first();
        assertEquals(AckReason.PING, ping.reason());
        assertTrue(!ping.header().isClientInitiated() && ping.header().hasFlag(PacketFlags.REQUEST_ACK));
        assertEquals(0x42, ping.header().cid(), "on the client's call: cid with its channel");
        assertEquals(5, ping.header().callNumber());
        assertNotEquals(0, ping.header().serial());
        assertEquals(0, ping.nAcks(), "acknowledges nothing: the kept packet may yet be evicted");
        assertEquals(1, ping.firstPacket());
        assertEquals(1, h.engine.totals().get(RxCounter.CHALLENGES_SENT));
        h.engine.shutdown(h.now);
        assertEquals(0, h.engine.totals().get(RxCounter.CHALLENGED_PACKETS));
    }

    @Test
    void aFloodOfDistinctSourcesLeavesTheTablesAtBaselineAndAClientArrivingMidFloodIsServed() {
        RxConfig config = RxConfig.defaults();
        EngineHarness h = new EngineHarness(config);
        Service svc = new Service(() -> h.now, 10);
        h.engine.registerService(SVC, 0, svc);
        int n = 20_000;
        int cap = config.limits().maxUnprovenConnections();
        List<ByteBuf> payloads = new ArrayList<>();
        for (int k = 0; k < n; k++) {
            FakePeer f = FakePeer.client(0x3BAD_0000 + k, 0x1000 + 4 * k, SVC);
            DataPacket d = f.data(0, 1, 1, PacketFlags.LAST_PACKET, 100);
            payloads.add(d.payload());
            h.deliverFrom(source(k), d);
            if (k == n / 2) {
                // A legitimate client arrives mid-flood: it answers the PING and is served at once.
                FakePeer good = FakePeer.client(0x600D_0000, 0x40, SVC);
                h.deliverFrom(REMOTE2, good.data(0, 1, 1, PacketFlags.LAST_PACKET, 20));
                AdmissionTest.answerPings(h, REMOTE2, good);
                assertEquals(1, svc.newCalls(), "the legitimate client is served mid-flood");
                h.clear();
            }
            h.advance(10_000); // 100,000 datagrams a second
        }
        assertEquals(1, h.engine.serverConnections().size(), "only the proven client's connection");
        assertEquals(1, h.engine.peers().size(), "only the proven client's peer");
        assertEquals(0, h.engine.totals().get(RxCounter.HELD_SERVER_CALLS));
        assertEquals(0, h.engine.totals().get(RxCounter.CONNECTIONS_EVICTED));
        assertEquals(cap, h.engine.totals().get(RxCounter.CHALLENGED_SOURCES), "records bounded by maxUnprovenConnections");
        assertEquals(cap, h.engine.totals().get(RxCounter.CHALLENGED_PACKETS));
        assertEquals(n + 1 - cap - 1, h.engine.totals().get(RxCounter.CHALLENGES_EVICTED),
                "oldest records evicted (the client's was taken)");
        for (int k = 0; k < n - cap; k++) {
            assertEquals(0, payloads.get(k).refCnt(), "an evicted source's packet is released: " + k);
        }
        assertEquals(1, svc.newCalls());
        h.engine.shutdown(h.now);
        for (ByteBuf b : payloads) {
            assertEquals(0, b.refCnt());
        }
    }

    @Test
    void theProvenClientIsAdmittedWithItsKeptPacketsAndEachNextConnectionAnswersItsOwnPing() {
        EngineHarness h = new EngineHarness(RxConfig.defaults());
        Service svc = new Service(() -> h.now, 10);
        h.engine.registerService(SVC, 0, svc);
        FakePeer c = FakePeer.client(0x7000_0002, 0x80, SVC);
        h.deliver(c.data(1, 1, 1, 0, 1412));
        h.deliver(c.data(1, 1, 2, 0, 1412));
        h.deliver(c.data(1, 1, 3, PacketFlags.LAST_PACKET, 100));
        assertEquals(1, pingsTo(h, REMOTE).size(), "one PING per source, not per packet");
        assertEquals(3, h.engine.totals().get(RxCounter.CHALLENGED_PACKETS));
        AdmissionTest.answerPings(h, REMOTE, c);
        assertEquals(1, h.engine.totals().get(RxCounter.CHALLENGES_ANSWERED));
        assertEquals(1, svc.newCalls());
        assertEquals(2 * 1412 + 100, svc.record(0).bytesRead);
        assertTrue(svc.record(0).readComplete);
        assertEquals(0, h.engine.totals().get(RxCounter.CHALLENGED_SOURCES));
        assertEquals(1, h.engine.serverConnections().size());
        // Another connection from the proven address proves itself too: a PING, and its call starts on the answer.
        h.clear();
        FakePeer c2 = FakePeer.client(0x7000_0002, 0x84, SVC);
        h.deliver(c2.data(0, 1, 1, PacketFlags.LAST_PACKET, 20));
        assertEquals(1, svc.newCalls(), "not before its own answer");
        assertEquals(1, pingsTo(h, REMOTE).size());
        AdmissionTest.answerPings(h, REMOTE, c2);
        assertEquals(2, svc.newCalls());
        assertEquals(2, h.engine.serverConnections().size());
        // The first connection's next call needs no PING: that connection answered.
        h.clear();
        h.deliver(c.data(1, 2, 1, PacketFlags.LAST_PACKET, 20));
        assertEquals(3, svc.newCalls());
        assertTrue(pingsTo(h, REMOTE).isEmpty());
    }

    /**
     * A proof belongs to the connection that answered, not to its address (docs/robustness.md "Rule: stateless
     * reachability challenge"): a spoofer who knows a proven client's address forges one 48-byte request for a
     * 100,000-byte reply on a new connection "from" it. The victim gets the PING of that connection's challenge and
     * nothing else — no call, no DATA, no recovery PINGs, no ABORT at dead time: at most 3 × the forged bytes.
     */
    @Test
    void aForgedNewConnectionFromAProvenAddressEarnsNoMoreThanThreeTimesItsBytes() {
        EngineHarness h = new EngineHarness(RxConfig.defaults());
        Service svc = new Service(() -> h.now, 100_000);
        h.engine.registerService(SVC, 0, svc);
        FakePeer victim = FakePeer.client(0x7000_0010, 0x100, SVC);
        h.deliver(victim.data(0, 1, 1, PacketFlags.LAST_PACKET, 20));
        AdmissionTest.answerPings(h, REMOTE, victim);
        assertEquals(1, svc.newCalls(), "the victim's address is proven");
        h.advance(10 * MS);
        h.clear();
        FakePeer forged = FakePeer.client(0x5BAD_0000, 0x200, SVC);
        DataPacket request = forged.data(0, 1, 1, PacketFlags.LAST_PACKET, 20);
        int in = RxConstants.HEADER_SIZE + request.bodyLength();
        h.deliver(request);
        h.advance(60 * S); // the victim never answers for the forged connection
        long out = 0;
        int datagrams = 0;
        for (EngineHarness.Datagram d : h.sent) {
            if ((d.first().header().cid() & ~3) == forged.cid) {
                datagrams++;
                for (RxPacket p : d.packets()) {
                    out += RxConstants.HEADER_SIZE + p.bodyLength();
                }
            }
        }
        assertEquals(1, svc.newCalls(), "no call for the forged connection");
        assertEquals(1, h.engine.serverConnections().size(), "no connection for it either");
        assertEquals(1, datagrams, "one PING, nothing after it");
        assertTrue(out <= Reachability.AMPLIFICATION_LIMIT * in, out + " bytes out for " + in + " in");
        h.engine.shutdown(h.now);
    }

    /**
     * The rxkad form of the same forgery: a forged first packet at security index 2 from a proven address earns one
     * stateless CHALLENGE (44 bytes for its 48) and nothing else in 60 s: no connection, no resends, where it earned
     * 8 CHALLENGEs over 16 s before the reachability challenge.
     */
    @Test
    void aForgedRxkadConnectionFromAProvenAddressEarnsOneStatelessChallengeWithinThreeTimesItsBytes() {
        EngineHarness h = new EngineHarness(RxConfig.defaults());
        Service svc = new Service(() -> h.now, 10);
        h.engine.registerService(SVC, 0, svc);
        h.engine.registerService(SVC, RxkadTestCredentials.server(RxkadLevel.CLEAR), new Service(() -> h.now, 10));
        FakePeer victim = FakePeer.client(0x7000_0011, 0x100, SVC);
        h.deliver(victim.data(0, 1, 1, PacketFlags.LAST_PACKET, 20));
        AdmissionTest.answerPings(h, REMOTE, victim);
        assertEquals(1, svc.newCalls(), "the victim's address is proven");
        h.clear();
        FakePeer forged = FakePeer.client(0x5BAD_0001, 0x200, SVC, 2);
        DataPacket request = forged.data(0, 1, 1, PacketFlags.LAST_PACKET, 20);
        int in = RxConstants.HEADER_SIZE + request.bodyLength();
        h.deliver(request);
        h.advance(60 * S);
        long out = 0;
        for (EngineHarness.Datagram d : h.sent) {
            if ((d.first().header().cid() & ~3) == forged.cid) {
                for (RxPacket p : d.packets()) {
                    out += RxConstants.HEADER_SIZE + p.bodyLength();
                }
            }
        }
        // One stateless CHALLENGE in 60 s (44 bytes for 48), nothing more: no connection's CHALLENGE resends.
        assertEquals(1, h.engine.totals().get(RxCounter.SECURITY_CHALLENGES_SENT), "one CHALLENGE");
        assertEquals(0, pingsTo(h, REMOTE).stream().filter(a -> (a.header().cid() & ~3) == forged.cid).count(),
                "the CHALLENGE is the proof: no PING");
        assertEquals(1, h.engine.serverConnections().size(), "only the victim's connection");
        assertTrue(out <= Reachability.AMPLIFICATION_LIMIT * in, out + " bytes out for " + in + " in");
        h.engine.shutdown(h.now);
    }

    /**
     * The challenge PING's ACK trailer says what the route carries, as every later ACK of the server does: on a
     * 1,500-byte route maxMTU 1,444 and 1 jumbogram packet (not the defaults' 5,692 and 4, which would make a peer that
     * believes it send fragments); on a 9,000-byte route the same values as the later ACKs too.
     */
    @Test
    void theChallengePingsTrailerSaysWhatTheRouteCarries() {
        for (int routeMtu : new int[] {1500, 9000}) {
            SimNetwork net = new SimNetwork(RxConfig.defaults(), RxConfig.defaults(), LinkModel.delay(MS),
                    LinkModel.delay(MS), 11);
            net.routeMtu = routeMtu;
            net.server().engine.registerService(SVC, 0, new Service(net::now, 50_000));
            List<AckPacket> serverAcks = new ArrayList<>();
            net.sendTap = (now, fromClient, packets) -> {
                for (RxPacket p : packets) {
                    if (!fromClient && p instanceof AckPacket a && a.hasTrailer()) {
                        serverAcks.add(new AckPacket(a.header(), a.bufferSpace(), a.maxSkew(), a.firstPacket(),
                                a.previousPacket(), a.serial(), a.reason(), new byte[0], 4, a.maxMTU(), a.ifMTU(),
                                a.rwind(), a.maxDgramPackets(), 0));
                    }
                }
            };
            Connection conn = net.client().engine.connect(SimNetwork.SERVER, SVC, 0);
            Call call = net.client().engine.newCall(net.now(), conn, new RecordingApps.CallRecord(net::now));
            call.write(net.now(), Unpooled.buffer(50_000).writeZero(50_000));
            call.finishSending(net.now());
            net.runFor(2 * S);
            assertTrue(serverAcks.size() >= 2, "the PING and later ACKs");
            AckPacket ping = serverAcks.get(0);
            assertEquals(AckReason.PING, ping.reason(), "the challenge PING comes first");
            AckPacket later = serverAcks.get(serverAcks.size() - 1);
            assertEquals(List.of(later.maxMTU(), later.ifMTU(), later.maxDgramPackets()),
                    List.of(ping.maxMTU(), ping.ifMTU(), ping.maxDgramPackets()),
                    "route MTU " + routeMtu + ": the PING's trailer as the later ACKs'");
            if (routeMtu == 1500) {
                assertEquals(List.of(1444, 1444, 1), List.of(ping.maxMTU(), ping.ifMTU(), ping.maxDgramPackets()));
            }
            net.shutdown();
        }
    }

    @Test
    void aWrongSerialCallOrAddressProvesNothing() {
        EngineHarness h = new EngineHarness(RxConfig.defaults());
        Service svc = new Service(() -> h.now, 10);
        h.engine.registerService(SVC, 0, svc);
        FakePeer c = FakePeer.client(0x7000_0003, 0xC0, SVC);
        h.deliver(c.data(0, 1, 1, PacketFlags.LAST_PACKET, 100));
        int serial = pingsTo(h, REMOTE).get(0).header().serial();
        h.deliver(c.ack(0, 1, 1, 0, serial + 1, AckReason.PING_RESPONSE, new byte[0], 32, 1));
        h.deliver(c.ack(0, 2, 1, 0, serial, AckReason.PING_RESPONSE, new byte[0], 32, 1));
        h.deliver(c.ack(0, 1, 1, 0, serial, AckReason.DELAY, new byte[0], 32, 1));
        h.deliverFrom(REMOTE2, c.ack(0, 1, 1, 0, serial, AckReason.PING_RESPONSE, new byte[0], 32, 1));
        assertEquals(0, svc.newCalls());
        assertEquals(0, h.engine.totals().get(RxCounter.CHALLENGES_ANSWERED));
        assertEquals(0, h.engine.serverConnections().size());
        assertEquals(0, h.engine.peers().size());
        h.deliver(c.ack(0, 1, 1, 0, serial, AckReason.PING_RESPONSE, new byte[0], 32, 1));
        assertEquals(1, svc.newCalls(), "the real answer");
    }

    /**
     * A client whose kept packet was evicted by a flood before it answered (an OpenAFS client answers the PING on its
     * call and resends its DATA after its RTO): the answer alone proves it — the serial is recomputed, not looked
     * up — and its resend is served at once.
     */
    @Test
    void aClientWhoseRecordWasEvictedIsProvenByItsAnswerAndServedOnItsResend() {
        EngineHarness h = new EngineHarness(RxConfig.builder().maxUnprovenConnections(4).build());
        Service svc = new Service(() -> h.now, 10);
        h.engine.registerService(SVC, 0, svc);
        FakePeer c = FakePeer.client(0x7000_0004, 0x100, SVC);
        DataPacket first = c.data(0, 1, 1, PacketFlags.LAST_PACKET, 100);
        ByteBuf firstPayload = first.payload();
        h.deliver(first);
        AckPacket ping = pingsTo(h, REMOTE).get(0);
        for (int k = 0; k < 10; k++) {
            h.deliverFrom(source(k), FakePeer.client(0x3BAD_0000, 0x1000 + 4 * k, SVC)
                    .data(0, 1, 1, PacketFlags.LAST_PACKET, 100));
        }
        assertEquals(0, firstPayload.refCnt(), "the client's record was evicted, its packet released");
        h.deliver(c.ack(0, 1, 1, 0, ping.header().serial(), AckReason.PING_RESPONSE, new byte[0], 32, 1));
        assertEquals(1, h.engine.totals().get(RxCounter.CHALLENGES_ANSWERED));
        assertEquals(0, svc.newCalls(), "nothing kept to start");
        h.advance(3200 * MS); // the client's RTO
        h.clear();
        h.deliver(c.data(0, 1, 1, PacketFlags.LAST_PACKET | PacketFlags.REQUEST_ACK, 100));
        assertEquals(1, svc.newCalls(), "the resend starts at once");
        assertTrue(pingsTo(h, REMOTE).isEmpty());
    }

    /** A source that never answers (half-reachable, or forged): its record and packets go a dead time after it came. */
    @Test
    void aSourceThatNeverAnswersIsForgottenADeadTimeLater() {
        RxConfig config = RxConfig.defaults();
        EngineHarness h = new EngineHarness(config);
        Service svc = new Service(() -> h.now, 10);
        h.engine.registerService(SVC, 0, svc);
        FakePeer c = FakePeer.client(0x7000_0005, 0x140, SVC);
        List<ByteBuf> payloads = new ArrayList<>();
        for (int i = 0; i < 10; i++) { // resends once a second, never answers
            DataPacket d = c.data(0, 1, 1, PacketFlags.LAST_PACKET | PacketFlags.REQUEST_ACK, 100);
            payloads.add(d.payload());
            h.deliver(d);
            h.advance(S);
        }
        assertEquals(1, h.engine.totals().get(RxCounter.CHALLENGED_SOURCES));
        assertEquals(10, h.engine.totals().get(RxCounter.CHALLENGED_PACKETS));
        assertEquals(10, pingsTo(h, REMOTE).size(), "a PING per resend (each paid by its own bytes)");
        h.advanceTo(config.timeouts().deadTimeNs() + MS);
        assertEquals(0, h.engine.totals().get(RxCounter.CHALLENGED_SOURCES));
        assertEquals(0, h.engine.totals().get(RxCounter.CHALLENGED_PACKETS));
        assertEquals(1, h.engine.totals().get(RxCounter.CHALLENGES_EXPIRED));
        for (ByteBuf b : payloads) {
            assertEquals(0, b.refCnt());
        }
        assertEquals(0, svc.newCalls());
        assertEquals(0, h.engine.serverConnections().size());
        assertEquals(0, h.engine.peers().size());
    }

    /**
     * Garbage that decodes as a client packet for an unknown service earns a raw ABORT; from a flood of sources that
     * is paced endpoint-wide (a burst of 100, then 1,000 a second), the rest counted as withheld replies.
     */
    @Test
    void rawAbortsToUnknownTrafficArePacedEndpointWide() {
        EngineHarness h = new EngineHarness(RxConfig.defaults());
        h.engine.registerService(SVC, 0, call -> { });
        for (int k = 0; k < 300; k++) {
            h.deliverFrom(source(k), FakePeer.client(0x3BAD_0000, 0x1000 + 4 * k, 999)
                    .data(0, 1, 1, PacketFlags.LAST_PACKET, 4));
        }
        assertEquals(RawAborts.BURST, h.abortsSent().size());
        assertEquals(300 - RawAborts.BURST, h.engine.totals().get(RxCounter.REPLIES_WITHHELD));
        h.clear();
        h.advance(10 * RawAborts.INTERVAL_NS);
        for (int k = 0; k < 20; k++) {
            h.deliverFrom(source(k), FakePeer.client(0x3BAD_0000, 0x1000 + 4 * k, 999)
                    .data(0, 2, 1, PacketFlags.LAST_PACKET, 4));
        }
        assertEquals(10, h.abortsSent().size(), "one per interval past the burst");
        assertEquals(0, h.engine.totals().get(RxCounter.CHALLENGED_SOURCES), "an unknown service is not challenged");
    }
}
