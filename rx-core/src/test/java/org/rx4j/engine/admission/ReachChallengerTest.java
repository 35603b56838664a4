// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine.admission;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.rx4j.engine.EngineParts.source;

import io.netty.buffer.UnpooledByteBufAllocator;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.rx4j.config.RxConfig;
import org.rx4j.counters.RxCounter;
import org.rx4j.engine.EngineParts;
import org.rx4j.engine.FakePeer;
import org.rx4j.engine.call.Deadlines;
import org.rx4j.engine.peer.Peer;
import org.rx4j.engine.telemetry.RxCounters;
import org.rx4j.wire.AckPacket;
import org.rx4j.wire.AckReason;
import org.rx4j.wire.DataPacket;
import org.rx4j.wire.PacketFlags;
import org.rx4j.wire.PacketType;
import org.rx4j.wire.RxConstants;

/**
 * The stateless reachability challenge on plain {@code now} values (docs/robustness.md "Rule: stateless reachability
 * challenge"): PINGs paid from what the source sent, the PING_RESPONSE that proves it, the replay of its packets.
 */
class ReachChallengerTest {
    private static final long MIN_RTO = 20_000_000L;
    private static final long DEAD = 1_000_000_000L;
    private static final InetSocketAddress SRC = source(1);
    private static final int FULL_PING = RxConstants.HEADER_SIZE + RxConstants.ACK_FIXED_SIZE
            + RxConstants.ACK_PAD_SIZE + 16;
    private static final int BARE_PING = RxConstants.HEADER_SIZE + RxConstants.ACK_FIXED_SIZE;

    private final FakePeer client = FakePeer.client(0x600D0000, 0x100, 1);
    private EngineParts e;

    private ReachChallenger challenger(RxConfig.Builder b) {
        e = new EngineParts(b.minRto(Duration.ofNanos(MIN_RTO)).deadTime(Duration.ofNanos(DEAD)).build());
        return new ReachChallenger(e.config, e.table, new ConnectionLimits(e.config, e.table, e.counters), e.sink,
                e.counters, UnpooledByteBufAllocator.DEFAULT, 42);
    }

    private DataPacket data(int seq, int bytes) {
        return client.data(0, 1, seq, 0, bytes);
    }

    private static int size(DataPacket p) {
        return RxConstants.HEADER_SIZE + p.bodyLength();
    }

    private void challenge(ReachChallenger r, long now, DataPacket p) {
        r.challenge(now, SRC, p, size(p));
    }

    private AckPacket pingSent(int i) {
        AckPacket a = (AckPacket) e.sent.get(i).packet();
        assertEquals(AckReason.PING, a.reason());
        return a;
    }

    private AckPacket answer(AckPacket ping) {
        return client.ack(0, ping.header().callNumber(), 1, 0, ping.header().serial(), AckReason.PING_RESPONSE,
                new byte[0], 32, 1);
    }

    private RxCounters snapshot() {
        RxCounters t = new RxCounters(RxCounter.Scope.ENDPOINT);
        e.counters.addTo(t);
        return t;
    }

    @Test
    void newConnectionDataIsKeptWithoutAPeerAndEarnsOnePingPerMinimumRto() {
        ReachChallenger r = challenger(RxConfig.builder());
        challenge(r, 0, data(1, 100));
        assertEquals(1, e.sent.size());
        AckPacket ping = pingSent(0);
        assertEquals(SRC, e.sent.get(0).to());
        assertEquals(1, ping.header().callNumber(), "on the call the DATA opened");
        assertNotEquals(0, ping.header().serial(), "the cookie");
        assertNull(e.table.knownPeer(SRC), "no peer for an unproven source");
        assertEquals(1, e.counters.get(RxCounter.CHALLENGES_SENT));
        assertEquals(FULL_PING, e.counters.get(RxCounter.BYTES_SENT), "the trailer's PING: the 128 bytes received pay for it");
        challenge(r, MIN_RTO - 1, data(2, 100));
        assertEquals(1, e.sent.size(), "a resend within the minimum RTO earns no second PING");
        challenge(r, MIN_RTO, data(3, 100));
        assertEquals(2, e.sent.size());
        RxCounters t = snapshot();
        r.addCountersTo(t);
        assertEquals(1, t.get(RxCounter.CHALLENGED_SOURCES));
        assertEquals(3, t.get(RxCounter.CHALLENGED_PACKETS));
    }

    @Test
    void theSmallestDataPaysForTheFullPingAtThreeTimesItsBytes() {
        ReachChallenger r = challenger(RxConfig.builder());
        challenge(r, 0, data(1, 0)); // a header alone: 28 bytes, 84 of credit
        assertEquals(1, e.sent.size());
        assertTrue(pingSent(0).hasTrailer());
        assertEquals(FULL_PING, e.counters.get(RxCounter.BYTES_SENT));
        assertEquals(0, e.counters.get(RxCounter.REPLIES_WITHHELD));
    }

    @Test
    void aPingTheCreditCannotPayIsWithheldUntilTheSourceSendsMore() {
        // Sizes below a header cannot come from the wire: they check the credit's arithmetic (3 × bytes).
        ReachChallenger r = challenger(RxConfig.builder());
        DataPacket p = data(1, 4);
        r.challenge(0, SRC, p, 15); // 45 bytes of credit: less than the smallest PING
        assertEquals(0, e.sent.size());
        assertEquals(1, e.counters.get(RxCounter.REPLIES_WITHHELD));
        r.onAck(1, SRC, client.ack(0, 1, 1, 0, 0, AckReason.DELAY, new byte[0], 32, 1), 1);
        assertEquals(1, e.sent.size(), "48 bytes of credit pay for the bare PING");
        assertEquals(BARE_PING, e.counters.get(RxCounter.BYTES_SENT));
        assertEquals(1, e.counters.get(RxCounter.REPLIES_WITHHELD), "a withheld PING counts once");
    }

    @Test
    void eachNewConnectionOfASourceGetsItsOwnPingAndItsAnswerReplaysOnlyThatConnection() {
        ReachChallenger r = challenger(RxConfig.builder());
        FakePeer other = FakePeer.client(0x600D0000, 0x200, 1);
        challenge(r, 0, data(1, 100));
        challenge(r, 1, other.data(0, 1, 1, PacketFlags.LAST_PACKET, 100));
        assertEquals(2, e.sent.size(), "a PING per connection, within the minimum RTO");
        AckPacket second = pingSent(1);
        assertEquals(0x200, second.header().cid() & ~3);
        Peer peer = r.onAck(2, SRC, other.ack(0, 1, 1, 0, second.header().serial(), AckReason.PING_RESPONSE,
                new byte[0], 32, 1), FULL_PING);
        assertSame(e.table.knownPeer(SRC), peer);
        InetSocketAddress[] from = new InetSocketAddress[1];
        List<DataPacket> kept = r.takeReplay(from);
        assertEquals(1, kept.size(), "only the answering connection's packet");
        assertEquals(0x200, kept.get(0).header().connectionId());
        kept.forEach(DataPacket::release);
        DataPacket resend = other.data(0, 1, 1, 0, 1);
        DataPacket first = data(1, 1);
        assertFalse(r.takeProof(SRC, first.header()), "the other connection has not answered");
        assertTrue(r.takeProof(SRC, resend.header()), "the answering connection may open");
        assertFalse(r.takeProof(SRC, resend.header()), "once: the connection exists from then on");
        resend.release();
        first.release();
        RxCounters t = snapshot();
        r.addCountersTo(t);
        assertEquals(1, t.get(RxCounter.CHALLENGED_PACKETS), "the first connection's packet still waits for its answer");
    }

    @Test
    void aPingFromAWaitingSourceBringsOurPingAgainAfterTheMinimumRto() {
        ReachChallenger r = challenger(RxConfig.builder());
        challenge(r, 0, client.data(0, 1, 1, PacketFlags.REQUEST_ACK, 100));
        assertEquals(1, e.counters.get(RxCounter.REPLIES_WITHHELD), "its REQUEST_ACK gets no ACK, only the PING");
        AckPacket theirs = client.ping(0, 1);
        assertNull(r.onAck(MIN_RTO - 1, SRC, theirs, FULL_PING));
        assertEquals(1, e.sent.size());
        assertNull(r.onAck(MIN_RTO, SRC, client.ping(0, 1), FULL_PING));
        assertEquals(2, e.sent.size());
        assertEquals(pingSent(0).header().serial(), pingSent(1).header().serial(), "the same call's cookie");
    }

    @Test
    void thePingResponseProvesTheSourceAndHandsItsPacketsBackOldestFirst() {
        ReachChallenger r = challenger(RxConfig.builder());
        challenge(r, 0, data(1, 100));
        challenge(r, 10, data(2, 100));
        long rtt = 5_000_000;
        Peer peer = r.onAck(rtt, SRC, answer(pingSent(0)), FULL_PING);
        assertSame(e.table.knownPeer(SRC), peer, "the proven source's peer is made");
        assertEquals(rtt, peer.lastUsedNs, "heard from, and used, now");
        assertEquals(1, peer.rtt().samples(), "the PING's round trip is an RTT sample");
        assertEquals(1, e.counters.get(RxCounter.CHALLENGES_ANSWERED));
        assertEquals(1, e.counters.get(RxCounter.PACKETS_RECEIVED, PacketType.ACK));
        assertEquals(1, e.counters.get(RxCounter.ACKS_RECEIVED, AckReason.PING_RESPONSE));
        assertEquals(FULL_PING, e.counters.get(RxCounter.BYTES_RECEIVED));
        assertTrue(r.hasReplay());
        InetSocketAddress[] from = new InetSocketAddress[1];
        List<DataPacket> kept = r.takeReplay(from);
        assertEquals(SRC, from[0]);
        assertEquals(2, kept.size());
        assertEquals(1, kept.get(0).header().seq());
        assertEquals(2, kept.get(1).header().seq());
        assertEquals(100, kept.get(0).payload().readableBytes());
        kept.forEach(DataPacket::release);
        assertFalse(r.hasReplay());
        assertNull(r.takeReplay(from));
        RxCounters t = snapshot();
        r.addCountersTo(t);
        assertEquals(0, t.get(RxCounter.CHALLENGED_SOURCES), "the record left with its proof");
    }

    @Test
    void anAckWithoutTheCookieProvesNothing() {
        ReachChallenger r = challenger(RxConfig.builder());
        challenge(r, 0, data(1, 100));
        AckPacket ping = pingSent(0);
        AckPacket forged = client.ack(0, 1, 1, 0, ping.header().serial() + 1, AckReason.PING_RESPONSE,
                new byte[0], 32, 1);
        assertNull(r.onAck(1, SRC, forged, FULL_PING));
        assertNull(r.onAck(1, source(2), answer(ping), FULL_PING), "the cookie is bound to the source address");
        assertNull(e.table.knownPeer(SRC));
        assertEquals(0, e.counters.get(RxCounter.CHALLENGES_ANSWERED));
        assertFalse(r.hasReplay());
    }

    @Test
    void withThePeerTableFullOfPeersWithConnectionsTheProofWaitsForAResend() {
        ReachChallenger r = challenger(RxConfig.builder().maxPeers(1));
        e.table.proven(e.serverConnection(source(9)));
        challenge(r, 0, data(1, 100));
        assertNull(r.onAck(1, SRC, answer(pingSent(0)), FULL_PING));
        assertNull(e.table.knownPeer(SRC));
        RxCounters t = snapshot();
        r.addCountersTo(t);
        assertEquals(1, t.get(RxCounter.CHALLENGED_SOURCES), "the record stays for the client's next answer");
        assertEquals(0, t.get(RxCounter.CHALLENGES_ANSWERED));
    }

    @Test
    void recordsExpireADeadTimeAfterTheyWereMade() {
        ReachChallenger r = challenger(RxConfig.builder());
        assertEquals(Deadlines.NONE, r.nextExpiryNs());
        challenge(r, 100, data(1, 100));
        challenge(r, 200, data(2, 100));
        assertEquals(100 + DEAD, r.nextExpiryNs(), "resends do not extend it");
        r.expire(100 + DEAD - 1);
        r.expire(100 + DEAD);
        RxCounters t = snapshot();
        r.addCountersTo(t);
        assertEquals(0, t.get(RxCounter.CHALLENGED_SOURCES));
        assertEquals(1, t.get(RxCounter.CHALLENGES_EXPIRED));
        assertEquals(Deadlines.NONE, r.nextExpiryNs());
    }

    @Test
    void clearForgetsRecordsAndReleasesPacketsNotYetReplayed() {
        ReachChallenger r = challenger(RxConfig.builder());
        challenge(r, 0, data(1, 100));
        r.onAck(1, SRC, answer(pingSent(0)), FULL_PING);
        challenge(r, 2, FakePeer.client(0x600D0000, 0x200, 1).data(0, 1, 1, 0, 100));
        r.clear();
        assertFalse(r.hasReplay());
        RxCounters t = snapshot();
        r.addCountersTo(t);
        assertEquals(0, t.get(RxCounter.CHALLENGED_SOURCES));
        assertEquals(0, t.get(RxCounter.CHALLENGED_PACKETS));
    }
}
