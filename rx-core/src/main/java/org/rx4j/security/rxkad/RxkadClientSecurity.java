package org.rx4j.security.rxkad;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.Objects;
import java.util.Optional;
import org.rx4j.security.PacketHeader;
import org.rx4j.security.SecurityAbortException;
import org.rx4j.security.SecurityContext;

/**
 * The client side of rxkad (security index 2; docs/security.md): a connection runs at one {@link RxkadLevel} under
 * the session key of a ticket, answers the server's CHALLENGE with a RESPONSE carrying the ticket, and protects every
 * DATA packet (checksum; at auth the first block, at crypt the whole padded payload encrypted). Give it to
 * {@code RxEndpoint.connect(server, serviceId, securityClass)}.
 *
 * <p>Holds one credential (session key, ticket, kvno) for every connection it is given to; a connection whose ticket
 * expired is refused by the server with {@link RxkadCodes#RXKADEXPIRED}, and a new connection with a new instance
 * carries fresh credentials. Immutable and thread-safe; per-connection state lives in the connection's context.
 * Neither the key nor the ticket appears in {@link #toString()} or in any message.
 */
public final class RxkadClientSecurity extends RxkadSecurity {
    private final RxkadLevel level;
    private final SessionKey sessionKey;
    private final int kvno;
    private final byte[] ticket;

    /**
     * @param level the level every connection runs at (the server refuses one below its minimum)
     * @param sessionKey the session key the ticket carries
     * @param kvno the ticket's key version: 0..255 for a v4-style ticket sealed with the server's DES key of that
     *     version, 256 for a Kerberos 5 ticket (rxkad-k5), 213 for the "2b" form
     * @param ticket the ticket, 32..12,000 bytes, opaque to the client (copied)
     * @throws IllegalArgumentException if the ticket length is outside 32..12,000 or kvno is negative
     * @throws NullPointerException if an argument is null
     */
    public RxkadClientSecurity(RxkadLevel level, SessionKey sessionKey, int kvno, byte[] ticket) {
        this.level = Objects.requireNonNull(level, "level");
        this.sessionKey = Objects.requireNonNull(sessionKey, "sessionKey");
        if (ticket.length < RxkadResponse.MIN_TICKET || ticket.length > RxkadResponse.MAX_TICKET) {
            throw new IllegalArgumentException("ticket of " + ticket.length + " bytes is outside 32..12000");
        }
        if (kvno < 0) {
            throw new IllegalArgumentException("kvno must not be negative: " + kvno);
        }
        this.kvno = kvno;
        this.ticket = ticket.clone();
    }

    /** @return the level this client's connections run at */
    public RxkadLevel level() {
        return level;
    }

    /** Keys the new connection with this client's session key and level (the checksum's per-connection value). */
    @Override
    public void newConnection(SecurityContext ctx) {
        RxkadConnection c = new RxkadConnection(0);
        c.key(ctx, level, sessionKey, null, Long.MAX_VALUE);
        ctx.setState(c);
    }

    /** @return 0, or the RXKAD code of a wrong checksum or sealed word (the connection is aborted) */
    @Override
    public int checkIncoming(SecurityContext ctx, PacketHeader header, ByteBuf packet) {
        return RxkadConnection.of(ctx).check(header, packet, Long.MIN_VALUE);
    }

    /** @return true at auth and crypt, whose sealed word binds every packet to the session key */
    @Override
    public boolean authenticatesPackets(SecurityContext ctx) {
        return level != RxkadLevel.CLEAR;
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
        RxkadResponse r = RxkadResponse.answer(challenge, level, ctx.epoch(), ctx.cid(), ctx.securityIndex(), calls,
                kvno, ticket);
        ByteBuf out = Unpooled.buffer(r.encodedLength(), r.encodedLength());
        r.encode(sessionKey, out);
        return out.array();
    }

    /** @return {@link RxkadCodes#RXKADINCONSISTENCY}: a client checks no RESPONSE */
    @Override
    public int checkResponse(SecurityContext ctx, byte[] responseBody) {
        return RxkadCodes.RXKADINCONSISTENCY;
    }

    /** @return e.g. {@code rxkad-client[CRYPT, kvno 3]}, without key or ticket */
    @Override
    public String toString() {
        return "rxkad-client[" + level + ", kvno " + kvno + "]";
    }
}
