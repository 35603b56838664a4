// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine.security;

import io.netty.buffer.ByteBuf;
import java.util.List;
import java.util.Random;
import java.util.function.UnaryOperator;
import org.rx4j.security.CallerIdentity;
import org.rx4j.security.SecurityAbortException;
import org.rx4j.security.SecurityClass;
import org.rx4j.security.packet.PacketHeader;
import org.rx4j.security.packet.PacketSecurity;
import org.rx4j.security.packet.PacketSecurityAccess;
import org.rx4j.security.packet.SecurityContext;
import org.rx4j.security.rxkad.RxkadClientSecurity;
import org.rx4j.security.rxkad.RxkadLevel;
import org.rx4j.security.rxkad.RxkadServerSecurity;
import org.rx4j.security.rxkad.ServerKey;
import org.rx4j.security.rxkad.ServerKeySource;
import org.rx4j.security.rxkad.SessionKey;
import org.rx4j.security.rxkad.handshake.V4Ticket;

/**
 * Throwaway rxkad credentials for engine tests: a server DES key (kvno 5), a v4-style ticket for
 * {@code alice@EXAMPLE.ORG} sealed with it, and the client and server classes on a fixed wall clock, so every run is
 * the same.
 */
public final class RxkadTestCredentials {
    /** The server's wall clock, seconds since 1970. */
    static final long NOW = 1_800_000_000L;
    static final int KVNO = 5;
    static final long SERVER_KEY = oddParity(0x0123456789abcdefL);
    static final long OTHER_SERVER_KEY = oddParity(0x1f2e3d4c5b6a7988L);
    static final long SESSION_KEY = oddParity(0x7766554433221100L);

    private RxkadTestCredentials() {
    }

    /** @return {@code key} with DES odd parity in each byte's low bit */
    static long oddParity(long key) {
        long out = 0;
        for (int i = 7; i >= 0; i--) {
            int b = (int) (key >>> (8 * i)) & 0xfe;
            b |= Integer.bitCount(b) % 2 == 0 ? 1 : 0;
            out = (out << 8) | b;
        }
        return out;
    }

    static byte[] bytes(long v) {
        byte[] b = new byte[8];
        for (int i = 0; i < 8; i++) {
            b[i] = (byte) (v >>> (56 - 8 * i));
        }
        return b;
    }

    /** @return a ticket for alice valid from 60 s before {@link #NOW} for 8 hours, sealed with {@code serverKey} */
    static byte[] ticket(long serverKey, long start) {
        return new V4Ticket("alice", "", "EXAMPLE.ORG", 0, SESSION_KEY, start, start + 8 * 3600, "afs", "")
                .seal(serverKey);
    }

    /** @return a client at {@code level} holding the ticket for alice (kvno {@link #KVNO}) */
    public static RxkadClientSecurity client(RxkadLevel level) {
        return new RxkadClientSecurity(level, new SessionKey(SESSION_KEY), KVNO, ticket(SERVER_KEY, NOW - 60));
    }

    /** @return a server that accepts {@code minLevel} and up, with the server key, its clock at {@link #NOW} */
    public static RxkadServerSecurity server(RxkadLevel minLevel) {
        return new RxkadServerSecurity(
                ServerKeySource.of(List.of(new ServerKey(ServerKey.RXKAD, KVNO, 0, bytes(SERVER_KEY)))),
                minLevel, () -> NOW, new Random(7));
    }

    /** A client class whose RESPONSE bodies (or CHALLENGE bodies it reads) a test rewrites: a hostile client. */
    static final class Rewriting implements PacketSecurity {
        final PacketSecurity inner;
        final UnaryOperator<byte[]> challenge;
        final UnaryOperator<byte[]> response;

        Rewriting(SecurityClass inner, UnaryOperator<byte[]> challenge, UnaryOperator<byte[]> response) {
            this.inner = PacketSecurityAccess.of(inner);
            this.challenge = challenge;
            this.response = response;
        }

        @Override
        public int securityIndex() {
            return inner.securityIndex();
        }

        @Override
        public String name() {
            return inner.name();
        }

        @Override
        public void newConnection(SecurityContext ctx) {
            inner.newConnection(ctx);
        }

        @Override
        public int headerSize(SecurityContext ctx) {
            return inner.headerSize(ctx);
        }

        @Override
        public int trailerSize(SecurityContext ctx) {
            return inner.trailerSize(ctx);
        }

        @Override
        public int maxDataPerPacket(SecurityContext ctx, int packetSize) {
            return inner.maxDataPerPacket(ctx, packetSize);
        }

        @Override
        public int preparedLength(SecurityContext ctx, int dataBytes) {
            return inner.preparedLength(ctx, dataBytes);
        }

        @Override
        public boolean preparesWithoutChange(SecurityContext ctx) {
            return inner.preparesWithoutChange(ctx);
        }

        @Override
        public int prepareOutgoing(SecurityContext ctx, int channel, int callNumber, int seq, ByteBuf packet)
                throws SecurityAbortException {
            return inner.prepareOutgoing(ctx, channel, callNumber, seq, packet);
        }

        @Override
        public int checkIncoming(SecurityContext ctx, PacketHeader header, ByteBuf packet) {
            return inner.checkIncoming(ctx, header, packet);
        }

        @Override
        public boolean isAuthenticated(SecurityContext ctx) {
            return inner.isAuthenticated(ctx);
        }

        @Override
        public CallerIdentity identity(SecurityContext ctx) {
            return inner.identity(ctx);
        }

        @Override
        public java.util.Optional<byte[]> challengeBody(SecurityContext ctx) {
            return inner.challengeBody(ctx);
        }

        @Override
        public byte[] responseBody(SecurityContext ctx, byte[] challengeBody) throws SecurityAbortException {
            return response.apply(inner.responseBody(ctx, challenge.apply(challengeBody)));
        }

        @Override
        public int checkResponse(SecurityContext ctx, byte[] responseBody) {
            return inner.checkResponse(ctx, responseBody);
        }
    }
}
