// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.security.rxkad;

import io.netty.buffer.ByteBuf;
import org.rx4j.security.CallerIdentity;
import org.rx4j.security.SecurityAbortException;
import org.rx4j.security.SecurityStats;
import org.rx4j.security.packet.PacketHeader;
import org.rx4j.security.packet.SecurityContext;
import org.rx4j.security.rxkad.crypto.Fcrypt;
import org.rx4j.security.rxkad.crypto.PacketChecksum;
import org.rx4j.security.rxkad.crypto.PacketProtection;

/**
 * One rxkad connection's state, kept in its {@link SecurityContext#state()}: the level, the session key and the
 * per-connection checksum value once known (the client from the start, the server once it accepted the RESPONSE),
 * the server's CHALLENGE nonce and the caller's identity; and the per-packet work both sides share
 * (docs/security.md "Levels", "Packet checksum"). Confined to the connection's event loop.
 */
final class RxkadConnection {
    /** The server's CHALLENGE nonce (0 on a client). */
    final int nonce;
    private RxkadLevel level = RxkadLevel.CLEAR;
    private SessionKey key;
    private long connectionValue;
    private CallerIdentity identity;
    /** End of the ticket's life, seconds since 1970 ({@link Long#MAX_VALUE} for never). */
    private long expires = Long.MAX_VALUE;
    /** Client: the credentials this connection answers CHALLENGEs with; null on a server. */
    private RxkadCredentials credentials;
    /** A DATA packet's checksum was checked (rxdebug's pktCksum flag). */
    private boolean checksumSeen;
    private long packetsReceived;
    private long packetsSent;
    private long bytesReceived;
    private long bytesSent;

    /** @param nonce the server's CHALLENGE nonce; 0 on a client */
    RxkadConnection(int nonce) {
        this.nonce = nonce;
    }

    /** @return the state of {@code ctx}, made by the class's {@code newConnection} */
    static RxkadConnection of(SecurityContext ctx) {
        return (RxkadConnection) ctx.state();
    }

    /**
     * Keys the connection: from now on packets are prepared and checked at {@code level} under {@code sessionKey}.
     *
     * @param ctx the connection
     * @param lvl the connection's level
     * @param sessionKey the session key
     * @param who the caller's identity (server), or null
     * @param endSeconds when the ticket ends, seconds since 1970, or {@link Long#MAX_VALUE}
     */
    void key(SecurityContext ctx, RxkadLevel lvl, SessionKey sessionKey, CallerIdentity who, long endSeconds) {
        this.level = lvl;
        this.key = sessionKey;
        this.connectionValue = sessionKey.connectionValue(ctx.epoch(), ctx.cid(), ctx.securityIndex());
        this.identity = who;
        this.expires = endSeconds;
    }

    /**
     * Client: keys the connection with {@code creds} at {@code lvl}; its expiry becomes the connection's end.
     *
     * @param ctx the connection
     * @param lvl the connection's level
     * @param creds the credentials the connection's RESPONSEs carry
     */
    void keyClient(SecurityContext ctx, RxkadLevel lvl, RxkadCredentials creds) {
        key(ctx, lvl, creds.sessionKey(), null,
                creds.expiry() == TicketLifetime.NEVER ? Long.MAX_VALUE : creds.expiry());
        this.credentials = creds;
    }

    /** @return the client's credentials, or null on a server */
    RxkadCredentials credentials() {
        return credentials;
    }

    /** @return true once the connection has its session key */
    boolean isKeyed() {
        return key != null;
    }

    /** @return the level (clear until keyed) */
    RxkadLevel level() {
        return level;
    }

    /** @return the caller's identity, or null */
    CallerIdentity identity() {
        return identity;
    }

    /** @return when the ticket ends, seconds since 1970 ({@link Long#MAX_VALUE} for never) */
    long expires() {
        return expires;
    }

    /** @return the most bytes of padding the level may append after the data */
    int trailerSize() {
        return switch (level) {
            case CLEAR -> 0;
            case AUTH -> Fcrypt.BLOCK_SIZE - level.headerSize();
            case CRYPT -> Fcrypt.BLOCK_SIZE - 1;
        };
    }

    /**
     * Seals one DATA body in place ({@link PacketProtection#seal}) and computes its header checksum.
     *
     * @param channel the call's channel
     * @param callNumber the call number
     * @param seq the packet's seq
     * @param packet [header reserved][data], with room for the padding; the writer index moves to the body's end
     * @return the checksum for the spare field
     * @throws SecurityAbortException {@link RxkadCodes#RXKADNOAUTH} if the connection has no session key yet;
     *     {@link RxkadCodes#RXKADDATALEN} if the data exceeds 65,535 bytes
     */
    int prepare(int channel, int callNumber, int seq, ByteBuf packet) throws SecurityAbortException {
        if (key == null) {
            throw new SecurityAbortException(RxkadCodes.RXKADNOAUTH, "rxkad connection is not authenticated");
        }
        int userLength = packet.readableBytes() - level.headerSize();
        if (userLength > 0xffff) {
            throw new SecurityAbortException(RxkadCodes.RXKADDATALEN, "rxkad packet of " + userLength + " bytes");
        }
        int prepared = PacketProtection.seal(level, key.schedule(), key.iv(), packet, packet.readerIndex(),
                userLength, callNumber, seq);
        packet.writerIndex(packet.readerIndex() + prepared);
        packetsSent++;
        bytesSent += userLength;
        return PacketChecksum.compute(key.schedule(), connectionValue, callNumber, channel, seq);
    }

    /**
     * Checks one received DATA body: its header checksum (always required: every rxkad peer that sends version-2
     * RESPONSEs or answers them sets one, and 0 is never a computed value), then opens it
     * ({@link PacketProtection#open}) and narrows the buffer to the data.
     *
     * @param h the packet's header
     * @param packet the body as received
     * @param nowSeconds the wall clock, seconds since 1970, for the ticket's end
     * @return 0, or {@link RxkadCodes#RXKADNOAUTH} unkeyed, {@link RxkadCodes#RXKADEXPIRED} past the ticket's end,
     *     {@link RxkadCodes#RXKADSEALEDINCON} for a wrong checksum or sealed word, {@link RxkadCodes#RXKADDATALEN}
     */
    int check(PacketHeader h, ByteBuf packet, long nowSeconds) {
        if (key == null) {
            return RxkadCodes.RXKADNOAUTH;
        }
        if (nowSeconds > expires) {
            return RxkadCodes.RXKADEXPIRED;
        }
        if (h.spare() != PacketChecksum.compute(key.schedule(), connectionValue, h.callNumber(), h.cid(), h.seq())) {
            return RxkadCodes.RXKADSEALEDINCON;
        }
        checksumSeen = true;
        try {
            int index = packet.readerIndex();
            int userLength = PacketProtection.open(level, key.schedule(), key.iv(), packet, index,
                    packet.readableBytes(), h.callNumber(), h.seq());
            packet.setIndex(index + level.headerSize(), index + level.headerSize() + userLength);
            packetsReceived++;
            bytesReceived += userLength;
            return 0;
        } catch (SecurityAbortException e) {
            return e.code();
        }
    }

    /**
     * The connection's statistics as OpenAFS's rxkad reports them to rxdebug: the level; on a server the
     * authenticated flag once keyed and the ticket's end; the packet-checksum flag once one was checked; the
     * counters of the packets this connection prepared and checked (retransmissions are not prepared again).
     *
     * @param server true on a server connection
     * @param nowSeconds the wall clock, seconds since 1970, for the expired flag
     * @return the statistics
     */
    SecurityStats stats(boolean server, long nowSeconds) {
        int flags = checksumSeen ? SecurityStats.FLAG_PACKET_CHECKSUM : 0;
        long end = 0;
        if (server) {
            if (isKeyed()) {
                flags |= SecurityStats.FLAG_AUTHENTICATED;
            }
            if (expires != Long.MAX_VALUE) {
                end = expires;
                if (nowSeconds > expires) {
                    flags |= SecurityStats.FLAG_EXPIRED;
                }
            }
        }
        return new SecurityStats(SecurityStats.TYPE_RXKAD, level.wire(), flags, end, packetsReceived, packetsSent,
                bytesReceived, bytesSent);
    }
}
