// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.security.rxkad;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.Objects;
import java.util.Optional;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.rx4j.security.PacketHeader;
import org.rx4j.security.SecurityAbortException;
import org.rx4j.security.SecurityContext;
import org.rx4j.security.rxkad.handshake.RxkadChallenge;
import org.rx4j.security.rxkad.handshake.RxkadResponse;

/**
 * The client side of rxkad (security index 2; docs/security.md): a connection runs at one {@link RxkadLevel} under
 * the session key of a ticket, answers the server's CHALLENGE with a RESPONSE carrying the ticket, and protects every
 * DATA packet (checksum; at auth the first block, at crypt the whole padded payload encrypted). Give it to
 * {@code RxEndpoint.connect(server, serviceId, securityClass)}.
 *
 * <p>Credentials, two ways (docs/security.md "Ticket expiry"). Fixed ones (session key, kvno, ticket) serve every
 * connection; when the ticket ends the server aborts the connection with {@link RxkadCodes#RXKADEXPIRED} and its calls
 * fail. A credential supplier (a re-read of a ccache, a re-mint by {@link LocalAuth}) is asked once per new
 * connection; once the ticket's end passes on this class's clock, or the server aborted the connection with
 * RXKADEXPIRED, {@link #needsNewConnection} tells the engine to start the next call on a new connection (new cid),
 * which asks the supplier again, while calls in flight finish on the old one, as OpenAFS clients do.
 *
 * <p>Thread-safe when the supplier is; per-connection state (level, key, credentials) lives in the connection's
 * context. Neither the key nor the ticket appears in {@link #toString()} or in any message.
 */
public final class RxkadClientSecurity extends RxkadSecurity {
    private final RxkadLevel level;
    /** The credentials of every connection, or null when {@link #source} gives each its own. */
    private final RxkadCredentials fixed;
    private final Supplier<RxkadCredentials> source;
    private final LongSupplier clockSeconds;

    /**
     * A client with fixed credentials: every connection carries this ticket, and none is replaced when it ends.
     *
     * @param level the level every connection runs at (the server refuses one below its minimum)
     * @param sessionKey the session key the ticket carries
     * @param kvno the ticket's key version: 0..255 for a v4-style ticket sealed with the server's DES key of that
     *     version, 256 for a Kerberos 5 ticket (rxkad-k5), 213 for the "2b" form
     * @param ticket the ticket, 32..12,000 bytes, opaque to the client (copied)
     * @throws IllegalArgumentException if the ticket length is outside 32..12,000 or kvno outside 0..256
     * @throws NullPointerException if an argument is null
     */
    public RxkadClientSecurity(RxkadLevel level, SessionKey sessionKey, int kvno, byte[] ticket) {
        this.level = Objects.requireNonNull(level, "level");
        this.fixed = new RxkadCredentials(sessionKey, kvno, ticket, TicketLifetime.NEVER, "");
        this.source = null;
        this.clockSeconds = RxkadClientSecurity::wallClockSeconds;
    }

    /**
     * A client whose connections take fresh credentials from {@code credentials} and are replaced once those end, on
     * the wall clock.
     *
     * @param level the level every connection runs at
     * @param credentials asked once per new connection, on the endpoint's event loop (keep it quick: e.g. re-read a
     *     ccache only when its file changed); it may throw an unchecked exception (e.g. {@code UncheckedIOException}),
     *     which {@code RxEndpoint.connect} throws wrapped in a {@code CompletionException}, and which later fails the
     *     call that needed a new connection with RX_INVALID_OPERATION (−2) and its message
     * @throws NullPointerException if an argument is null
     */
    public RxkadClientSecurity(RxkadLevel level, Supplier<RxkadCredentials> credentials) {
        this(level, credentials, RxkadClientSecurity::wallClockSeconds);
    }

    /**
     * As {@link #RxkadClientSecurity(RxkadLevel, Supplier)} on a given clock.
     *
     * @param level the level every connection runs at
     * @param credentials asked once per new connection, on the endpoint's event loop
     * @param clockSeconds the wall clock, seconds since 1970, against which a ticket's end is checked when a call
     *     starts (tests pass a virtual one)
     * @throws NullPointerException if an argument is null
     */
    public RxkadClientSecurity(RxkadLevel level, Supplier<RxkadCredentials> credentials, LongSupplier clockSeconds) {
        this.level = Objects.requireNonNull(level, "level");
        this.fixed = null;
        this.source = Objects.requireNonNull(credentials, "credentials");
        this.clockSeconds = Objects.requireNonNull(clockSeconds, "clockSeconds");
    }

    private static long wallClockSeconds() {
        return System.currentTimeMillis() / 1000;
    }

    /** @return the level this client's connections run at */
    public RxkadLevel level() {
        return level;
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
