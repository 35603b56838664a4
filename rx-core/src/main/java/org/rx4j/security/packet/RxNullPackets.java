// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.security.packet;

import io.netty.buffer.ByteBuf;
import java.util.Optional;
import org.rx4j.security.RxNullSecurityClass;
import org.rx4j.security.SecurityIndex;

/**
 * The packet work of rxnull ({@link RxNullSecurityClass}), security index 0 (rx-wire-facts.md §11): no security
 * header or trailer (data starts right after the 28-byte Rx header), spare/checksum 0, every packet accepted, every
 * connection authenticated, so no CHALLENGE is ever sent (§7). Stateless; one shared instance, thread-safe.
 */
public final class RxNullPackets implements PacketSecurity {
    /** The shared instance, behind {@link RxNullSecurityClass#INSTANCE}. */
    public static final RxNullPackets INSTANCE = new RxNullPackets();

    private static final byte[] EMPTY = new byte[0];

    private RxNullPackets() {
    }

    /** @return 0 */
    @Override
    public int securityIndex() {
        return SecurityIndex.RXNULL;
    }

    /** @return {@code "rxnull"} */
    @Override
    public String name() {
        return "rxnull";
    }

    /** @return 0: no security header */
    @Override
    public int headerSize(SecurityContext ctx) {
        return 0;
    }

    /** @return 0: no security trailer */
    @Override
    public int trailerSize(SecurityContext ctx) {
        return 0;
    }

    /**
     * Leaves the packet untouched (borrowed, not released).
     *
     * @return 0, the spare value rxnull sends
     */
    @Override
    public int prepareOutgoing(SecurityContext ctx, int channel, int callNumber, int seq, ByteBuf packet) {
        return 0;
    }

    /**
     * Accepts the packet as it is, whatever its spare field; indexes untouched (borrowed, not released).
     *
     * @return 0
     */
    @Override
    public int checkIncoming(SecurityContext ctx, PacketHeader header, ByteBuf packet) {
        return 0;
    }

    /** @return true: rxnull never challenges */
    @Override
    public boolean isAuthenticated(SecurityContext ctx) {
        return true;
    }

    /** @return empty: rxnull never challenges */
    @Override
    public Optional<byte[]> challengeBody(SecurityContext ctx) {
        return Optional.empty();
    }

    /**
     * A peer that challenges an rxnull connection anyway gets an empty RESPONSE body.
     *
     * @return an empty array
     */
    @Override
    public byte[] responseBody(SecurityContext ctx, byte[] challengeBody) {
        return EMPTY;
    }

    /** @return 0: any response is accepted (none is expected) */
    @Override
    public int checkResponse(SecurityContext ctx, byte[] responseBody) {
        return 0;
    }

    @Override
    public String toString() {
        return "rxnull";
    }
}
