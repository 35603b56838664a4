package org.rx4j.engine;

import org.rx4j.config.RxConfig;
import java.util.ArrayList;
import java.util.List;
import org.rx4j.wire.AckPacket;
import org.rx4j.wire.AckReason;
import org.rx4j.wire.DataPacket;
import org.rx4j.wire.PacketFlags;
import org.rx4j.wire.PacketType;
import org.rx4j.wire.RxConstants;
import org.rx4j.wire.RxHeader;

/**
 * The transmit side of one {@link Call}: what the windows (twind, cwnd) allow to send, jumbogram grouping,
 * the REQUEST_ACK policy, DATA packet building, the handling of the peer's ACKs (hard and soft acks, RTT
 * samples, congestion control, NACK-driven fast retransmit) and the retransmit timeout (rx-wire-facts.md §3,
 * §4, §5, §8). Runs on the engine's thread; times are ns on the engine's clock.
 */
final class CallSender {
    private final Call call;
    private final RxConfig config;
    private final SendQueue sq;

    /** The transmit window, packets. */
    int twind;
    private boolean seenSlowStartOk;
    private int lastAckFirst;
    private int lastAckPrev;
    private int rttProbeSerial;
    /** When the retransmit timer fires (engine clock, ns), or {@link Call#NONE}. */
    long resendDeadlineNs = Call.NONE;
    private final List<DataPacket> batch = new ArrayList<>(46);

    CallSender(Call call, int twind) {
        this.call = call;
        this.config = call.config;
        this.sq = call.sq;
        this.twind = twind;
    }

    /**
     * Sends what the windows allow: lost packets first (one per datagram, REQUEST_ACK), then new packets,
     * joined into jumbograms when the peer accepts them (rx-wire-facts.md §4, §5, §8).
     */
    void transmit(long now) {
        if (call.state != CallState.ACTIVE && call.state != CallState.HOLD) {
            return;
        }
        Connection conn = call.conn;
        int cwnd = call.cc.cwnd();
        if (sq.lostCount > 0) {
            for (int s = sq.first; s - sq.nextToSend < 0 && sq.lostCount > 0 && sq.inFlight < cwnd; s++) {
                SendQueue.Entry e = sq.get(s);
                if (e.lost) {
                    e.lost = false;
                    sq.lostCount--;
                    conn.counters.resends++;
                    conn.peer.counters().resends++;
                    call.stats.resends++;
                    batch.add(dataPacket(now, s, e, PacketFlags.REQUEST_ACK));
                    sq.inFlight++;
                    call.engine.sendData(conn, batch);
                }
            }
        }
        int limit = sq.first + twind;
        int maxJumbo = jumboLimit();
        while (sq.nextToSend - sq.next < 0 && sq.nextToSend - limit < 0 && sq.inFlight < cwnd) {
            int room = Math.min(Math.min(cwnd - sq.inFlight, limit - sq.nextToSend), sq.next - sq.nextToSend);
            int k = 1;
            int max = Math.min(room, Math.min(maxJumbo, call.jumbo.size()));
            // Every sub-packet but the last holds exactly 1412 bytes and no LAST_PACKET (§4).
            while (k < max && sq.get(sq.nextToSend + k - 1).payload.readableBytes() == RxConstants.JUMBO_BUFFER_SIZE
                    && (sq.get(sq.nextToSend + k - 1).flags & PacketFlags.LAST_PACKET) == 0) {
                k++;
            }
            int lastSeqOfDgram = sq.nextToSend + k - 1;
            boolean moreAfter = lastSeqOfDgram + 1 - sq.next < 0 && lastSeqOfDgram + 1 - limit < 0
                    && sq.inFlight + k < cwnd;
            SendQueue.Entry lastEntry = sq.get(lastSeqOfDgram);
            boolean isLast = (lastEntry.flags & PacketFlags.LAST_PACKET) != 0;
            boolean requestAck = !isLast && (cwnd <= 2 || (!seenSlowStartOk && (lastSeqOfDgram & 1) == 1)
                    || rttProbeSerial == 0);
            for (int i = 0; i < k; i++) {
                int seq = sq.nextToSend + i;
                int flags = 0;
                boolean lastOfDgram = i == k - 1;
                if (!lastOfDgram || moreAfter) {
                    flags |= PacketFlags.MORE_PACKETS;
                }
                if (lastOfDgram && requestAck) {
                    flags |= PacketFlags.REQUEST_ACK;
                }
                batch.add(dataPacket(now, seq, sq.get(seq), flags));
            }
            if (requestAck) {
                rttProbeSerial = conn.lastSerial();
            }
            sq.nextToSend += k;
            sq.inFlight += k;
            if (k > 1) {
                conn.counters.jumbogramsSent++;
            }
            call.engine.sendData(conn, batch);
        }
        if ((sq.inFlight > 0 || sq.lostCount > 0) && resendDeadlineNs == Call.NONE) {
            resendDeadlineNs = now + conn.peer.rtt().rtoNs();
        }
        // Any DATA we send carries our ack state implicitly only for the reply; a pending delayed ack
        // for the request is no longer needed once reply data flows (§8).
        AckScheduler acks = call.acks;
        if (call.server && sq.nextToSend != 1 && acks.ackDeadlineNs != Call.NONE && call.rq.allReceived()) {
            acks.ackDeadlineNs = Call.NONE;
        }
        call.checkWritable();
    }

    private int jumboLimit() {
        Peer peer = call.conn.peer;
        if (config.jumboMax() <= 1 || peer.maxDgramPackets <= 1 || call.dataSize != RxConstants.JUMBO_BUFFER_SIZE) {
            return 1;
        }
        int byMtu = (peer.maxMtu - RxConstants.REMOTE_PACKET_SIZE) / RxConstants.JUMBO_STRIDE + 1;
        return Math.max(1, Math.min(peer.maxDgramPackets, Math.min(byMtu, config.jumboMax())));
    }

    private DataPacket dataPacket(long now, int seq, SendQueue.Entry e, int extraFlags) {
        Connection conn = call.conn;
        int serial = conn.nextSerial();
        if (e.transmits == 0) {
            e.firstSerial = serial;
        }
        e.lastSerial = serial;
        e.sentAtNs = now;
        e.transmits++;
        call.stats.dataPacketsSent++;
        call.timers.lastSendNs = now;
        RxHeader h = conn.header(call.channel, call.callNumber, seq, serial, PacketType.DATA, e.flags | extraFlags);
        return new DataPacket(h, e.payload.retainedDuplicate());
    }

    /** The retransmit timer fired: back off the RTO, then resend everything in flight or PING (§8). */
    void onResendTimeout(long now) {
        Connection conn = call.conn;
        conn.counters.timeouts++;
        conn.peer.rtt().backoff();
        if (sq.inFlight > 0 || sq.lostCount > 0) {
            sq.markAllLost();
            call.cc.onTimeout(twind);
            call.jumbo.onTimeout();
            resendDeadlineNs = Call.NONE;
            transmit(now);
        } else if (sq.size() > 0 && sq.nextToSend != sq.first) {
            // Everything sent is soft-acked but not hard-acked: ask where the receiver stands.
            call.acks.sendAck(now, AckReason.PING, 0, true);
        }
        resendDeadlineNs = (sq.inFlight > 0 || sq.lostCount > 0 || sq.first != sq.nextToSend)
                ? now + conn.peer.rtt().rtoNs() : Call.NONE;
    }

    // =====================================================================================
    // ACK processing

    /** Applies an ACK's trailer (peer MTU, rwind, jumbogram size) and its SLOW_START_OK flag (§3). */
    void applyTrailer(AckPacket a) {
        Connection conn = call.conn;
        if (a.hasTrailer()) {
            conn.peer.applyTrailer(a.trailerWords(), a.maxMTU(), a.ifMTU(), a.maxDgramPackets(), config.jumboMax());
            if (a.trailerWords() >= 3) {
                int rwind = Math.max(1, Math.min(a.rwind(), RxConstants.MAX_ACKS));
                conn.peer.lastRwind = rwind;
                int t = Math.min(config.maxTwind(), rwind);
                twind = a.trailerWords() >= 4 ? t : Math.min(twind, t);
            }
        }
        if (a.header().hasFlag(PacketFlags.SLOW_START_OK)) {
            seenSlowStartOk = true;
        }
    }

    /** Hard and soft acks, RTT samples, congestion control and fast retransmit for one ACK (§3, §8). */
    void processAckBody(long now, AckPacket a) {
        Connection conn = call.conn;
        int first = a.firstPacket();
        int prev = a.previousPacket();
        // Ignore ACKs older than one already processed (§3, §13): never read them as NACKs.
        if (first - lastAckFirst < 0 && lastAckFirst != 0) {
            conn.counters.acksIgnored++;
            return;
        }
        if (first == lastAckFirst && prev - lastAckPrev < 0 && prev - first >= 0) {
            conn.counters.acksIgnored++;
            return;
        }
        // Remembered clamped to what was sent: an ACK beyond that (a broken or hostile peer) must not make
        // every later, correct ACK look older and be ignored.
        int sentEnd = sq.nextToSend;
        lastAckFirst = first - sentEnd > 0 ? sentEnd : first;
        lastAckPrev = prev - sentEnd >= 0 ? sentEnd - 1 : prev;
        boolean timingAck = a.serial() != 0 && a.reason() != AckReason.DELAY;
        int ackSerial = a.serial();
        int firstBefore = sq.first;
        int newly = sq.hardAck(first, timingAck ? (seq, e) -> sample(now, e, ackSerial) : null);
        int highestSoft = 0;
        boolean nackBelow = false;
        boolean seenAck = false;
        int n = a.nAcks();
        // Walk from the top so a NACK is a hole only when an ACK lies above it.
        for (int i = n - 1; i >= 0; i--) {
            int seq = first + i;
            if (!sq.contains(seq) || seq - sq.nextToSend >= 0) {
                continue;
            }
            SendQueue.Entry e = sq.get(seq);
            if (a.isAcked(i)) {
                if (!seenAck) {
                    highestSoft = seq;
                }
                seenAck = true;
                if (!e.softAcked) {
                    if (e.lost) {
                        e.lost = false;
                        sq.lostCount--;
                    } else {
                        sq.inFlight--;
                    }
                    e.softAcked = true;
                    newly++;
                    if (timingAck) {
                        sample(now, e, ackSerial);
                    }
                }
            } else if (e.softAcked) {
                // The receiver dropped a packet it had soft-acked: resend it (§3).
                sq.markLost(e);
                nackBelow = true;
            } else if (seenAck) {
                nackBelow = true;
            }
        }
        if (newly > 0 || sq.first != firstBefore) {
            call.ackProgress++;
        }
        int highestSent = sq.nextToSend - 1;
        if (nackBelow) {
            call.jumbo.onNack();
            if (call.cc.onNackedAck(highestSent)) {
                conn.counters.fastRetransmits++;
                for (int s = first; s - highestSoft < 0; s++) {
                    if (sq.contains(s)) {
                        SendQueue.Entry e = sq.get(s);
                        if (!e.softAcked && !e.lost && e.transmits > 0) {
                            sq.markLost(e);
                        }
                    }
                }
            }
        }
        if (newly > 0) {
            if (!nackBelow) {
                call.cc.onAck(newly, Math.max(first - 1, highestSoft), highestSent);
                call.jumbo.onCleanAck(newly);
            }
            // Soft-acked packets still count: if the hard ack that frees them is lost (or the receiver holds
            // them), only this timer's PING makes the receiver tell us where it stands (§8).
            resendDeadlineNs = sq.inFlight > 0 || sq.lostCount > 0 || sq.first != sq.nextToSend
                    ? now + conn.peer.rtt().rtoNs() : Call.NONE;
        }
        if (rttProbeSerial != 0 && ackSerial - rttProbeSerial >= 0 && ackSerial != 0) {
            rttProbeSerial = 0;
        }
    }

    private void sample(long now, SendQueue.Entry e, int ackSerial) {
        if (e.transmits == 1 || e.lastSerial == ackSerial || e.firstSerial == ackSerial) {
            long rtt = now - e.sentAtNs;
            if (rtt >= 0) {
                call.conn.peer.rtt().onSample(rtt);
                call.stats.rttSamples++;
            }
        }
    }

    /** Everything sent counts as hard-acked: an ACKALL, or (client) the first reply packet (§2, §6.3). */
    void ackEverythingSent() {
        sq.hardAck(sq.nextToSend, null);
        resendDeadlineNs = Call.NONE;
        call.ackProgress++;
    }
}
