// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.security.rxkad;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.security.SecureRandom;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.LongSupplier;
import java.util.random.RandomGenerator;
import org.rx4j.security.CallerIdentity;
import org.rx4j.security.PacketHeader;
import org.rx4j.security.SecurityAbortException;
import org.rx4j.security.SecurityContext;
import org.rx4j.security.SecurityIndex;
import org.rx4j.security.rxkad.crypto.DesPcbc;
import org.rx4j.security.rxkad.handshake.RxkadChallenge;
import org.rx4j.security.rxkad.handshake.RxkadResponse;
import org.rx4j.security.rxkad.handshake.TicketOpener;
import org.rx4j.security.rxkad.handshake.V4Ticket;

/**
 * The server side of rxkad (security index 2; docs/security.md): each new connection is challenged (a version-2
 * CHALLENGE with a random nonce and this server's minimum level); the RESPONSE's ticket is opened with the server key
 * of its kvno, its times checked, and its sealed part checked against the connection, the nonce and the minimum level.
 * Only then do the connection's calls reach their handler, which sees the caller's {@link CallerIdentity}; every
 * DATA packet is checked and opened at the level the client chose. Register it with
 * {@code RxEndpoint.registerService(serviceId, securityClass, handler)}.
 *
 * <p>Tickets: every form {@link TicketOpener} opens, by the RESPONSE's kvno: a v4-style ticket (kvno 0..255) sealed
 * with the DES key ({@link ServerKey#RXKAD}) of that version, a Kerberos 5 ticket (kvno 256, rxkad-k5, what
 * {@code kinit} users send) or the "2b" form (kvno 213, what OpenAFS's {@code -localauth} mints when the server has an
 * rxkad_krb5 key), both opened with the {@link ServerKey#RXKAD_KRB5} key of the enctype and version they name. The
 * keys come from a {@link ServerKeySource}: a {@link KeyDirectory} over an AFS server's KeyFile and KeyFileExt
 * (re-read when they change), or keys given in code. Thread-safe when its key source is; per-connection state lives
 * in the connection's context. No key, ticket or session key appears in a message.
 */
public final class RxkadServerSecurity extends RxkadSecurity {
    private final TicketOpener tickets;
    private final RxkadLevel minLevel;
    private final LongSupplier clockSeconds;
    private final RandomGenerator random;

    /**
     * A server over keys given in code, with the wall clock and a {@link SecureRandom} for nonces.
     *
     * @param keys the server's keys (copied): DES keys for v4-style tickets, rxkad_krb5 keys for Kerberos 5 tickets
     * @param minLevel the least level a client may run at; below it the RESPONSE is refused with
     *     {@link RxkadCodes#RXKADLEVELFAIL} before any call of the connection reaches its handler
     * @throws NullPointerException if an argument is null
     */
    public RxkadServerSecurity(List<ServerKey> keys, RxkadLevel minLevel) {
        this(ServerKeySource.of(keys), minLevel);
    }

    /**
     * A server with the wall clock and a {@link SecureRandom} for nonces.
     *
     * @param keys where the keys come from (read on the event loop for each RESPONSE; e.g. a {@link KeyDirectory})
     * @param minLevel the least level a client may run at; below it the RESPONSE is refused with
     *     {@link RxkadCodes#RXKADLEVELFAIL} before any call of the connection reaches its handler
     * @throws NullPointerException if an argument is null
     */
    public RxkadServerSecurity(ServerKeySource keys, RxkadLevel minLevel) {
        this(keys, minLevel, () -> System.currentTimeMillis() / 1000, new SecureRandom());
    }

    /**
     * A server with the clock and random source given. Loads the JDK's DES here, at the server's start (tens of ms in
     * a cold JVM), rather than on the first RESPONSE (docs/embedding.md "Start-up time").
     *
     * @param keys where the keys come from
     * @param minLevel the least level a client may run at
     * @param clockSeconds the wall clock, seconds since 1970, for tickets' times (tests pass a fixed one)
     * @param random where CHALLENGE nonces come from (use a {@link SecureRandom} outside tests)
     * @throws NullPointerException if an argument is null
     */
    public RxkadServerSecurity(ServerKeySource keys, RxkadLevel minLevel, LongSupplier clockSeconds,
                               RandomGenerator random) {
        this.tickets = new TicketOpener(Objects.requireNonNull(keys, "keys"));
        this.minLevel = Objects.requireNonNull(minLevel, "minLevel");
        this.clockSeconds = Objects.requireNonNull(clockSeconds, "clockSeconds");
        this.random = Objects.requireNonNull(random, "random");
        DesPcbc.warmUp(); // at the server's start, not on its first RESPONSE
    }

    /** @return the least level this server accepts */
    public RxkadLevel minLevel() {
        return minLevel;
    }

    /** Gives the new connection its CHALLENGE nonce; it has no key until its RESPONSE is accepted. */
    @Override
    public void newConnection(SecurityContext ctx) {
        ctx.setState(new RxkadConnection(random.nextInt()));
    }

    /**
     * @return 0, or {@link RxkadCodes#RXKADNOAUTH} before the RESPONSE, {@link RxkadCodes#RXKADEXPIRED} once the
     *     ticket ended, {@link RxkadCodes#RXKADSEALEDINCON} for a wrong checksum or sealed word,
     *     {@link RxkadCodes#RXKADDATALEN} for a sealed length beyond the packet
     */
    @Override
    public int checkIncoming(SecurityContext ctx, PacketHeader header, ByteBuf packet) {
        return RxkadConnection.of(ctx).check(header, packet, clockSeconds.getAsLong());
    }

    /** @return true once the connection's RESPONSE was accepted */
    @Override
    public boolean isAuthenticated(SecurityContext ctx) {
        return RxkadConnection.of(ctx).isKeyed();
    }

    /** @return the caller the ticket names, with the connection's level and the ticket's end; null before */
    @Override
    public CallerIdentity identity(SecurityContext ctx) {
        return RxkadConnection.of(ctx).identity();
    }

    /** @return the 16-byte version-2 CHALLENGE (the same nonce for every resend), or empty once authenticated */
    @Override
    public Optional<byte[]> challengeBody(SecurityContext ctx) {
        RxkadConnection c = RxkadConnection.of(ctx);
        if (c.isKeyed()) {
            return Optional.empty();
        }
        ByteBuf out = Unpooled.buffer(RxkadChallenge.V2_SIZE, RxkadChallenge.V2_SIZE);
        RxkadChallenge.v2(c.nonce, minLevel).encode(out);
        return Optional.of(out.array());
    }

    /**
     * @return the 16-byte version-2 CHALLENGE with {@code nonce} and this server's minimum level (rx-wire-facts.md
     *     §7), the same bytes {@link #challengeBody} sends for a connection of that nonce
     */
    @Override
    public Optional<byte[]> statelessChallengeBody(int nonce) {
        ByteBuf out = Unpooled.buffer(RxkadChallenge.V2_SIZE, RxkadChallenge.V2_SIZE);
        RxkadChallenge.v2(nonce, minLevel).encode(out);
        return Optional.of(out.array());
    }

    /** Gives the connection the stateless CHALLENGE's nonce (not a random one); it has no key until the RESPONSE. */
    @Override
    public void newChallengedConnection(SecurityContext ctx, int nonce) {
        ctx.setState(new RxkadConnection(nonce));
    }

    /** @return {@link RxkadCodes#RXKADINCONSISTENCY}: a server answers no CHALLENGE */
    @Override
    public byte[] responseBody(SecurityContext ctx, byte[] challengeBody) throws SecurityAbortException {
        throw new SecurityAbortException(RxkadCodes.RXKADINCONSISTENCY, "an rxkad server answers no CHALLENGE");
    }

    /**
     * Checks a RESPONSE in OpenAFS's order: its clear parts, the ticket opened by its kvno ({@link TicketOpener}) and
     * its times, the sealed part's checksum under the ticket's session key, then connection, nonce and level.
     * Accepted: the connection is keyed at the client's level and reports the client's call numbers.
     *
     * @return 0, or {@link RxkadCodes#RXKADPACKETSHORT}, {@link RxkadCodes#RXKADTICKETLEN},
     *     {@link RxkadCodes#RXKADUNKNOWNKEY} (no key of the ticket's version and type), {@link RxkadCodes#RXKADBADKEY},
     *     {@link RxkadCodes#RXKADBADTICKET}, {@link RxkadCodes#RXKADEXPIRED}, {@link RxkadCodes#RXKADNOAUTH}, {@link RxkadCodes#RXKADSEALEDINCON},
     *     {@link RxkadCodes#RXKADOUTOFSEQUENCE} or {@link RxkadCodes#RXKADLEVELFAIL}
     */
    @Override
    public int checkResponse(SecurityContext ctx, byte[] responseBody) {
        RxkadConnection c = RxkadConnection.of(ctx);
        try {
            RxkadResponse.Sealed sealed = RxkadResponse.decode(Unpooled.wrappedBuffer(responseBody), 0,
                    responseBody.length);
            V4Ticket ticket = tickets.open(sealed.kvno(), sealed.ticket(), clockSeconds.getAsLong());
            SessionKey sessionKey = new SessionKey(ticket.sessionKey());
            RxkadResponse response = sealed.open(sessionKey);
            response.verify(ctx.epoch(), ctx.cid(), ctx.securityIndex(), c.nonce, minLevel);
            int[] calls = new int[RxkadResponse.CHANNELS];
            for (int i = 0; i < calls.length; i++) {
                calls[i] = response.callNumber(i);
            }
            long end = ticket.end() == TicketLifetime.NEVER ? Long.MAX_VALUE : ticket.end();
            CallerIdentity who = new CallerIdentity(ticket.name(), ticket.instance(), ticket.cell(),
                    SecurityIndex.RXKAD, response.level().wire(), end);
            ctx.setResponseCallNumbers(calls);
            c.key(ctx, response.level(), sessionKey, who, end);
            return 0;
        } catch (SecurityAbortException e) {
            return e.code();
        }
    }

    /** @return this server's clock (tests pass a fixed one) */
    @Override
    long nowSeconds() {
        return clockSeconds.getAsLong();
    }

    /** @return e.g. {@code rxkad-server[min AUTH]} */
    @Override
    public String toString() {
        return "rxkad-server[min " + minLevel + "]";
    }
}
