// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine.admission;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.rx4j.counters.RxCounter;
import org.rx4j.engine.call.Deadlines;
import org.rx4j.engine.connection.Connection;
import org.rx4j.engine.security.ConnectionSecurity;
import org.rx4j.engine.security.HeldBytes;
import org.rx4j.engine.telemetry.RxCounters;
import org.rx4j.security.SecurityAbortException;
import org.rx4j.wire.AbortCodes;
import org.rx4j.wire.ControlPacket;
import org.rx4j.wire.DataPacket;
import org.rx4j.wire.PacketType;
import org.rx4j.wire.RxConstants;

/**
 * The engine's side of a security class's CHALLENGE / RESPONSE exchange and its per-packet checks
 * (rx-wire-facts.md §7; docs/security.md "In the engine"). Server: the DATA of a connection whose client is not
 * authenticated is parked ({@link ConnectionSecurity#park}) and answered with a CHALLENGE, resent every
 * {@link #CHALLENGE_INTERVAL_NS} up to {@link #MAX_CHALLENGES} times; an accepted RESPONSE adopts the client's call
 * numbers and releases the parked DATA, a refused one aborts the connection with the class's code. Client: a
 * CHALLENGE is answered with one RESPONSE, at most {@link #MAX_RESPONSES_PER_SECOND} a second per connection. Every
 * DATA packet passes the class's check before a call sees it; a failure aborts the connection — unless the packet
 * came from an address other than the connection's: then it is dropped and counted, and nothing is sent
 * (docs/robustness.md "Rule: a security failure from another address ends nothing"). Parked DATA counts in a byte
 * budget ({@link HeldBytes}; "Rule: a byte budget for what unproven sources leave"). Engine thread only.
 */
public final class SecurityHandshake {
    /** Between CHALLENGEs of one connection, ns: OpenAFS's 2 s. */
    public static final long CHALLENGE_INTERVAL_NS = 2_000_000_000L;
    /** CHALLENGEs per connection before the server gives up (OpenAFS: 50; 8 outlast a client's 12 s dead time). */
    public static final int MAX_CHALLENGES = 8;
    /** RESPONSEs a client connection sends in one second at most, whatever number of CHALLENGEs arrive. */
    public static final int MAX_RESPONSES_PER_SECOND = 4;
    private static final long SECOND_NS = 1_000_000_000L;

    /** The endpoint's own counters: the handshakes' {@code security.*} counts go there. */
    private final RxCounters counters;
    /**
     * Server connections that sent a CHALLENGE and wait for the RESPONSE (the resend timer's work), in the order they
     * were challenged: the resends of one timer run go out in a deterministic order.
     */
    private final Set<Connection> waiting = new LinkedHashSet<>();
    /** The earliest resend due among {@link #waiting}, or earlier (a connection left since): a wake-up, not a promise. */
    private long nextDeadlineNs = Deadlines.NONE;
    /** The byte budget of parked DATA; unbounded until {@link #budget} sets it. */
    private HeldBytes parkedBudget = new HeldBytes(Long.MAX_VALUE, Long.MAX_VALUE);
    /** Packets that failed a check and came from an address other than their connection's (dropped). */
    private long otherAddressFailures;

    /** @param counters the endpoint's own counters (endpoint-scoped), where the handshakes are counted */
    public SecurityHandshake(RxCounters counters) {
        this.counters = counters;
    }

    /**
     * Bounds the DATA parked before authentication.
     *
     * @param maxBytes most bytes parked endpoint-wide ({@code maxHeldBytes})
     * @param maxPerPeer most bytes parked for one peer ({@code maxHeldBytesPerPeer})
     */
    public void budget(long maxBytes, long maxPerPeer) {
        parkedBudget = new HeldBytes(maxBytes, maxPerPeer);
    }

    /**
     * Adds the parked bytes, the packets refused for lack of room and the security failures from other addresses to
     * an endpoint snapshot.
     *
     * @param snapshot the counters being taken (the endpoint's own)
     */
    public void addCountersTo(RxCounters snapshot) {
        snapshot.add(RxCounter.HELD_BYTES, parkedBudget.bytes());
        snapshot.add(RxCounter.HELD_PACKETS_REFUSED, parkedBudget.refused());
        snapshot.add(RxCounter.SECURITY_FAILURES_FROM_OTHER_ADDRESSES, otherAddressFailures);
    }

    /**
     * A DATA packet of a connection: on a server connection whose client is not authenticated it is parked (and a
     * CHALLENGE goes out), else the class checks it. Ownership: on false the packet was taken (parked, or released
     * when refused); on true it stays the caller's, narrowed to its data. DATA from another address is never parked
     * (it could not be checked until the handshake is over), and when it fails its check it is dropped and counted
     * without an ABORT: a stranger's packet ends nothing of the connection's.
     *
     * @param now current time, ns
     * @param conn the packet's connection
     * @param p the DATA packet
     * @param fromOtherAddress true when the packet came from an address other than the connection's
     * @return true when the packet may go to its call
     */
    public boolean admit(long now, Connection conn, DataPacket p, boolean fromOtherAddress) {
        ConnectionSecurity sec = conn.security;
        if (sec.none) {
            return true;
        }
        if (!sec.isAuthenticated()) {
            if (fromOtherAddress) {
                counters.increment(RxCounter.SECURITY_PACKETS_REFUSED);
                p.release();
                return false;
            }
            if (sec.handshakeFailed || conn.error != 0 || !park(conn, p)) {
                counters.increment(RxCounter.SECURITY_PACKETS_REFUSED);
                p.release();
            }
            if (!sec.handshakeFailed && conn.error == 0 && sec.challengesSent < MAX_CHALLENGES
                    && (sec.challengesSent == 0 || now - sec.nextChallengeNs >= 0)) {
                challenge(now, conn);
            }
            return false;
        }
        int code = sec.check(p);
        if (code != 0) {
            counters.increment(RxCounter.SECURITY_PACKETS_REFUSED);
            p.release();
            if (fromOtherAddress) {
                otherAddressFailures++;
            } else {
                abort(now, conn, code);
            }
            return false;
        }
        return true;
    }

    /**
     * Parks a DATA packet within the byte budget: beyond the peer's share it is refused; beyond the endpoint's, the
     * parked DATA of the other connections challenged longest ago is released first (their clients resend it once
     * authenticated).
     *
     * @return true when parked (the packet taken), false when refused (still the caller's)
     */
    private boolean park(Connection conn, DataPacket p) {
        int size = RxConstants.HEADER_SIZE + p.payload().readableBytes();
        if (!parkedBudget.fitsPeer(conn.peer.parkedBytes, size)) {
            parkedBudget.refuse();
            return false;
        }
        if (!parkedBudget.fitsTotal(size)) {
            for (Connection other : waiting) {
                if (other != conn) {
                    other.security.releaseParked();
                    if (parkedBudget.fitsTotal(size)) {
                        break;
                    }
                }
            }
            if (!parkedBudget.fitsTotal(size)) {
                parkedBudget.refuse();
                return false;
            }
        }
        return conn.security.park(p, parkedBudget, conn.peer);
    }

    /** Aborts the connection with {@code code}: the ABORT goes out unless the peer's ABORT replies are paced. */
    private static void abort(long now, Connection conn, int code) {
        if (conn.peer.allowAbortReply(now)) {
            conn.abort(now, code);
        } else {
            conn.fail(now, code, false);
        }
    }

    /**
     * Sends a CHALLENGE (callNumber 0). Toward a peer not proven reachable it is paid from the peer's reply credit,
     * so an unproven source never gets more than three times the bytes it sent (docs/robustness.md "Rule: unsolicited
     * traffic, loops and amplification"): the first DATA of any client (28 bytes at least) pays for the 44-byte
     * rxkad CHALLENGE at once, its resends for at most two more.
     *
     * @return true when it went out
     */
    private boolean challenge(long now, Connection conn) {
        ConnectionSecurity sec = conn.security;
        Optional<byte[]> body = sec.packets.challengeBody(sec.context);
        if (body.isEmpty()) {
            return false;
        }
        int size = RxConstants.HEADER_SIZE + body.get().length;
        if (!conn.peer.isReachable(now) && !conn.peer.spendReplyCredit(size)) {
            return false;
        }
        sec.challengesSent++;
        sec.nextChallengeNs = now + CHALLENGE_INTERVAL_NS;
        counters.increment(RxCounter.SECURITY_CHALLENGES_SENT);
        conn.send(new ControlPacket(conn.header(0, 0, 0, conn.nextSerial(), PacketType.CHALLENGE, 0), body.get()));
        waiting.add(conn);
        nextDeadlineNs = Deadlines.earlier(nextDeadlineNs, sec.nextChallengeNs);
        return true;
    }

    /**
     * A RESPONSE reached a server connection: ignored unless this side challenged and the client is not yet
     * authenticated; else the class checks it. Accepted: the connection adopts the RESPONSE's call numbers and its
     * parked DATA is handed back. Refused: the connection is aborted with the class's code — unless the RESPONSE came
     * from an address other than the connection's: then it is dropped and counted, and the handshake goes on.
     *
     * @param now current time, ns
     * @param conn the server connection
     * @param p the RESPONSE (its body is read, not kept)
     * @param fromOtherAddress true when the RESPONSE came from an address other than the connection's
     * @return the parked DATA to dispatch now (the caller takes them), or an empty list
     */
    public List<DataPacket> onResponse(long now, Connection conn, ControlPacket p, boolean fromOtherAddress) {
        ConnectionSecurity sec = conn.security;
        if (conn.client || sec.none || sec.challengesSent == 0 || sec.handshakeFailed || sec.isAuthenticated()) {
            counters.increment(RxCounter.SECURITY_RESPONSES_IGNORED);
            return List.of();
        }
        int code;
        try {
            code = sec.packets.checkResponse(sec.context, p.body());
        } catch (RuntimeException e) {
            code = AbortCodes.RX_PROTOCOL_ERROR; // the SPI never throws for input bytes; refuse all the same
        }
        if (fromOtherAddress && (code != 0 || !sec.isAuthenticated())) {
            counters.increment(RxCounter.SECURITY_RESPONSES_REFUSED);
            otherAddressFailures++;
            return List.of(); // a stranger's junk: the real client's RESPONSE may still come
        }
        waiting.remove(conn);
        if (code != 0 || !sec.isAuthenticated()) {
            counters.increment(RxCounter.SECURITY_RESPONSES_REFUSED);
            sec.handshakeFailed = true;
            sec.releaseParked();
            // Not paced: one ABORT per connection (it refuses all later RESPONSEs), smaller than the RESPONSE.
            conn.abort(now, code != 0 ? code : AbortCodes.RX_PROTOCOL_ERROR);
            return List.of();
        }
        int[] numbers = sec.context.takeResponseCallNumbers();
        if (numbers != null) {
            conn.adoptCallNumbers(numbers);
        }
        return sec.takeParked();
    }

    /**
     * A CHALLENGE reached a client connection: answered with the class's RESPONSE, one per CHALLENGE and at most
     * {@link #MAX_RESPONSES_PER_SECOND} a second; rxnull connections do not answer. A class that cannot answer aborts
     * the connection with its code.
     *
     * @param now current time, ns
     * @param conn the client connection
     * @param p the CHALLENGE (its body is read, not kept)
     */
    public void onChallenge(long now, Connection conn, ControlPacket p) {
        ConnectionSecurity sec = conn.security;
        if (!conn.client || sec.none || conn.error != 0) {
            counters.increment(RxCounter.SECURITY_CHALLENGES_IGNORED);
            return;
        }
        sec.challenged = true;
        if (now - sec.responseWindowNs >= SECOND_NS) {
            sec.responseWindowNs = now;
            sec.responsesInWindow = 0;
        }
        if (sec.responsesInWindow >= MAX_RESPONSES_PER_SECOND) {
            counters.increment(RxCounter.SECURITY_CHALLENGES_IGNORED);
            return;
        }
        sec.responsesInWindow++;
        byte[] body;
        try {
            body = sec.packets.responseBody(sec.context, p.body());
        } catch (SecurityAbortException e) {
            conn.abort(now, e.code()); // to the server this client chose; once, as the connection fails
            return;
        }
        counters.increment(RxCounter.SECURITY_RESPONSES_SENT);
        conn.send(new ControlPacket(conn.header(0, 0, 0, conn.nextSerial(), PacketType.RESPONSE, 0), body));
    }

    /** @return when a CHALLENGE may next be due (engine clock, ns), or {@link Deadlines#NONE}; O(1) */
    public long nextDeadline() {
        return waiting.isEmpty() ? Deadlines.NONE : nextDeadlineNs;
    }

    /**
     * Resends due CHALLENGEs; a connection challenged {@link #MAX_CHALLENGES} times without an answer gives up: its
     * parked DATA is released and later DATA refused (its calls never started, so nothing else ends).
     *
     * @param now current time, ns
     */
    public void run(long now) {
        if (waiting.isEmpty() || nextDeadlineNs == Deadlines.NONE || now - nextDeadlineNs < 0) {
            return;
        }
        nextDeadlineNs = Deadlines.NONE;
        for (Connection c : new ArrayList<>(waiting)) {
            ConnectionSecurity sec = c.security;
            if (c.closed || c.error != 0 || sec.isAuthenticated()) {
                waiting.remove(c); // authenticated, or gone: the client aborted the connection, or it was removed
                sec.releaseParked();
            } else if (now - sec.nextChallengeNs >= 0) {
                if (sec.challengesSent >= MAX_CHALLENGES) {
                    waiting.remove(c);
                    sec.handshakeFailed = true;
                    sec.releaseParked();
                    counters.increment(RxCounter.SECURITY_HANDSHAKES_ABANDONED);
                } else if (!challenge(now, c)) {
                    // Not paid for yet (an unproven source): the client's next DATA may bring it; this try counts.
                    sec.nextChallengeNs = now + CHALLENGE_INTERVAL_NS;
                    sec.challengesSent++;
                }
            }
            if (waiting.contains(c)) {
                nextDeadlineNs = Deadlines.earlier(nextDeadlineNs, sec.nextChallengeNs);
            }
        }
    }
}
