// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.security.rxkad;

import io.netty.buffer.ByteBuf;
import org.rx4j.security.SecurityAbortException;
import org.rx4j.security.SecurityIndex;
import org.rx4j.security.SecurityStats;
import org.rx4j.security.packet.PacketSecurity;
import org.rx4j.security.packet.SecurityContext;
import org.rx4j.security.rxkad.crypto.Fcrypt;
import org.rx4j.wire.RxConstants;

/**
 * What the packet work of rxkad's client and server sides shares (behind the handles {@link RxkadClientSecurity} and
 * {@link RxkadServerSecurity}; package-private, so none of it is public API): the index, the sizes of a connection's
 * packets at its level, and sealing an outgoing packet under the connection's session key (docs/security.md "Levels").
 * Each connection's level and key live in its {@link RxkadConnection}.
 */
abstract class RxkadSecurity implements PacketSecurity {
    /** @return 2 (rxkad) */
    @Override
    public final int securityIndex() {
        return SecurityIndex.RXKAD;
    }

    /** @return {@code "rxkad"} */
    @Override
    public final String name() {
        return "rxkad";
    }

    /** @return the connection's level's security header: 0, 4 or 8 bytes (0 on a server before the RESPONSE) */
    @Override
    public final int headerSize(SecurityContext ctx) {
        return RxkadConnection.of(ctx).level().headerSize();
    }

    /** @return the most padding at the connection's level: 0 at clear, 4 at auth, 7 at crypt */
    @Override
    public final int trailerSize(SecurityContext ctx) {
        return RxkadConnection.of(ctx).trailerSize();
    }

    /**
     * @return the user data whose sealed body fits ({@link RxkadLevel#maxUserData}): 1412, 1408 and 1400 bytes of a
     *     1440-byte packet at clear, auth and crypt
     */
    @Override
    public final int maxDataPerPacket(SecurityContext ctx, int packetSize) {
        int payload = packetSize - RxConstants.HEADER_SIZE;
        return payload < Fcrypt.BLOCK_SIZE ? 0 : RxkadConnection.of(ctx).level().maxUserData(payload);
    }

    /** @return {@link RxkadLevel#preparedLength} of the data at the connection's level */
    @Override
    public final int preparedLength(SecurityContext ctx, int dataBytes) {
        return RxkadConnection.of(ctx).level().preparedLength(dataBytes);
    }

    /**
     * @return true at clear: the packet only gets its checksum, so the engine need not copy the data (before the
     *     RESPONSE a server connection has no level yet, and preparing fails with RXKADNOAUTH either way)
     */
    @Override
    public final boolean preparesWithoutChange(SecurityContext ctx) {
        return RxkadConnection.of(ctx).level() == RxkadLevel.CLEAR;
    }

    /**
     * Seals the packet at the connection's level (borrowed, not released) and returns its checksum.
     *
     * @throws SecurityAbortException {@link RxkadCodes#RXKADNOAUTH} before the connection has its session key,
     *     {@link RxkadCodes#RXKADDATALEN} for more than 65,535 data bytes
     */
    @Override
    public final int prepareOutgoing(SecurityContext ctx, int channel, int callNumber, int seq, ByteBuf packet)
            throws SecurityAbortException {
        return RxkadConnection.of(ctx).prepare(channel, callNumber, seq, packet);
    }

    /**
     * @return rxkad's statistics for rxdebug's connection listings: level, flags (authenticated, expired, packet
     *     checksum seen), the ticket's end on a server, and the packets and bytes this connection prepared and checked
     */
    @Override
    public final SecurityStats stats(SecurityContext ctx) {
        return RxkadConnection.of(ctx).stats(!ctx.isClient(), nowSeconds());
    }

    /** @return the wall clock in seconds since 1970 for the expired flag (a server uses its own clock) */
    long nowSeconds() {
        return System.currentTimeMillis() / 1000;
    }
}
