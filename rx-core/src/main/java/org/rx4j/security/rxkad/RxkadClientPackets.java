// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.security.rxkad;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.Objects;
import java.util.Optional;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.rx4j.security.SecurityAbortException;
import org.rx4j.security.packet.PacketHeader;
import org.rx4j.security.packet.SecurityContext;
import org.rx4j.security.rxkad.handshake.RxkadChallenge;
import org.rx4j.security.rxkad.handshake.RxkadResponse;

/**
 * The packet work of rxkad's client side, behind {@link RxkadClientSecurity} (docs/security.md): keys each new
 * connection at one {@link RxkadLevel} under the session key of fixed or supplied credentials, answers the server's
 * CHALLENGE with a RESPONSE carrying the ticket, protects every DATA packet (checksum; at auth the first block, at
 * crypt the whole padded payload encrypted), and asks for a new connection once supplied credentials end
 * (docs/security.md "Ticket expiry"). Package-private: not public API.
 *
 * <p>Thread-safe when the supplier is; per-connection state (level, key, credentials) lives in the connection's
 * context. Neither the key nor the ticket appears in {@link #toString()} or in any message.
 */
final class RxkadClientPackets extends RxkadSecurity {
    private final RxkadLevel level;
    /** The credentials of every connection, or null when {@link #source} gives each its own. */
    private final RxkadCredentials fixed;
    private final Supplier<RxkadCredentials> source;
    private final LongSupplier clockSeconds;

    /**
     * @param level the level every connection runs at
     * @param fixed the credentials of every connection, or null to ask {@code source} once per connection
     * @param source asked once per new connection when {@code fixed} is null, else null
     * @param clockSeconds the wall clock, seconds since 1970, against which a supplied ticket's end is checked
     */
    RxkadClientPackets(RxkadLevel level, RxkadCredentials fixed, Supplier<RxkadCredentials> source,
                       LongSupplier clockSeconds) {
        this.level = level;
        this.fixed = fixed;
        this.source = source;
        this.clockSeconds = clockSeconds;
    }

    /**
     * Keys the new connection with this client's level and the fixed credentials or the supplier's current ones (the
     * checksum's per-connection value).
     *
     * @throws NullPointerException if the supplier gave null
     */
    @Override
    public void newConnection(SecurityContext ctx) {
        RxkadConnection c = new RxkadConnection(0);
        c.keyClient(ctx, level, fixed != null ? fixed : Objects.requireNonNull(source.get(), "credentials"));
        ctx.setState(c);
    }

    /**
     * @return with a credential supplier: true once the connection's ticket ended on this class's clock, or when the
     *     server aborted the connection with {@link RxkadCodes#RXKADEXPIRED}; always false with fixed credentials
     *     (a new connection would carry the same ticket)
     */
    @Override
    public boolean needsNewConnection(SecurityContext ctx, int abortCode) {
        return source != null && (abortCode == RxkadCodes.RXKADEXPIRED
                || clockSeconds.getAsLong() >= RxkadConnection.of(ctx).expires());
    }

    /** @return 0, or the RXKAD code of a wrong checksum or sealed word (the connection is aborted) */
    @Override
    public int checkIncoming(SecurityContext ctx, PacketHeader header, ByteBuf packet) {
        return RxkadConnection.of(ctx).check(header, packet, Long.MIN_VALUE);
    }

    /** @return true: a client is never challenged by itself */
    @Override
    public boolean isAuthenticated(SecurityContext ctx) {
        return true;
    }

    /** @return empty: clients do not challenge */
    @Override
    public Optional<byte[]> challengeBody(SecurityContext ctx) {
        return Optional.empty();
    }

    /**
     * Answers a CHALLENGE: the connection's epoch, cid and call numbers with the nonce + 1 and level, sealed under the
     * session key, then kvno and ticket (docs/security.md "Handshake").
     *
     * @throws SecurityAbortException {@link RxkadCodes#RXKADPACKETSHORT} for a short CHALLENGE,
     *     {@link RxkadCodes#RXKADLEVELFAIL} when the server wants a level above this client's or an unknown one,
     *     {@link RxkadCodes#RXKADINCONSISTENCY} when a call number is above 2^31-1
     */
    @Override
    public byte[] responseBody(SecurityContext ctx, byte[] challengeBody) throws SecurityAbortException {
        RxkadChallenge challenge = RxkadChallenge.decode(Unpooled.wrappedBuffer(challengeBody), 0,
                challengeBody.length);
        int[] calls = new int[RxkadResponse.CHANNELS];
        for (int i = 0; i < calls.length; i++) {
            calls[i] = ctx.callNumber(i);
            if (calls[i] < 0) {
                throw new SecurityAbortException(RxkadCodes.RXKADINCONSISTENCY, "call number above 2^31-1");
            }
        }
        RxkadCredentials creds = RxkadConnection.of(ctx).credentials();
        RxkadResponse r = RxkadResponse.answer(challenge, level, ctx.epoch(), ctx.cid(), ctx.securityIndex(), calls,
                creds.kvno(), creds.ticket());
        ByteBuf out = Unpooled.buffer(r.encodedLength(), r.encodedLength());
        r.encode(creds.sessionKey(), out);
        return out.array();
    }

    /** @return {@link RxkadCodes#RXKADINCONSISTENCY}: a client checks no RESPONSE */
    @Override
    public int checkResponse(SecurityContext ctx, byte[] responseBody) {
        return RxkadCodes.RXKADINCONSISTENCY;
    }

    /** @return e.g. {@code rxkad-client[CRYPT, kvno 3]} ({@code supplied} for a supplier), without key or ticket */
    @Override
    public String toString() {
        return "rxkad-client[" + level + (fixed != null ? ", kvno " + fixed.kvno() : ", supplied") + "]";
    }
}
