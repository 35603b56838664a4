// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.security.rxkad;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.Objects;
import java.util.Optional;
import java.util.function.LongSupplier;
import java.util.random.RandomGenerator;
import org.rx4j.security.CallerIdentity;
import org.rx4j.security.SecurityAbortException;
import org.rx4j.security.SecurityIndex;
import org.rx4j.security.packet.PacketHeader;
import org.rx4j.security.packet.SecurityContext;
import org.rx4j.security.rxkad.crypto.DesPcbc;
import org.rx4j.security.rxkad.handshake.RxkadChallenge;
import org.rx4j.security.rxkad.handshake.RxkadResponse;
import org.rx4j.security.rxkad.handshake.TicketOpener;
import org.rx4j.security.rxkad.handshake.V4Ticket;

/**
 * The packet work of rxkad's server side, behind {@link RxkadServerSecurity} (docs/security.md): challenges each new
 * connection (a version-2 CHALLENGE with a random nonce and the minimum level), opens and checks the RESPONSE's
 * ticket and sealed part, then checks and opens every DATA packet at the level the client chose. Package-private: not
 * public API. Thread-safe when its key source is; per-connection state lives in the connection's context. No key,
 * ticket or session key appears in a message.
 */
final class RxkadServerPackets extends RxkadSecurity {
    private final TicketOpener tickets;
    private final RxkadLevel minLevel;
    private final LongSupplier clockSeconds;
    private final RandomGenerator random;

    /**
     * @param keys where the keys come from
     * @param minLevel the least level a client may run at
     * @param clockSeconds the wall clock, seconds since 1970, for tickets' times
     * @param random where CHALLENGE nonces come from
     * @throws NullPointerException if an argument is null
     */
    RxkadServerPackets(ServerKeySource keys, RxkadLevel minLevel, LongSupplier clockSeconds, RandomGenerator random) {
        this.tickets = new TicketOpener(Objects.requireNonNull(keys, "keys"));
        this.minLevel = Objects.requireNonNull(minLevel, "minLevel");
        this.clockSeconds = Objects.requireNonNull(clockSeconds, "clockSeconds");
        this.random = Objects.requireNonNull(random, "random");
        DesPcbc.warmUp(); // at the server's start, not on its first RESPONSE (docs/embedding.md "Start-up time")
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

    /** @return true: rxkad's server challenges a source before any connection exists */
    @Override
    public boolean hasStatelessChallenge() {
        return true;
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
