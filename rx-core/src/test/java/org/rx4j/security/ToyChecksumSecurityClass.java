// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.security;

import io.netty.buffer.ByteBuf;
import java.nio.ByteBuffer;
import java.util.Optional;
import java.util.Random;
import org.rx4j.security.packet.PacketHeader;
import org.rx4j.security.packet.PacketSecurity;
import org.rx4j.security.packet.SecurityContext;

/**
 * TEST ONLY, not secure: a security class shaped like rxkad to prove that {@link SecurityClass} carries
 * what rxkad needs. A CHALLENGE holds a nonce; the RESPONSE proves knowledge of a shared secret and carries
 * the client's four call numbers; both ends then derive a session key kept in {@link SecurityContext#state()}.
 * Each DATA body is {@code [4-byte data length][data XOR keystream][8-byte MAC]}, and the spare field holds a
 * 16-bit checksum of (callNumber, channel, seq) under the session key, never 0 (as rxkad's).
 */
final class ToyChecksumSecurityClass implements PacketSecurity {
    static final int INDEX = 200;
    static final int HEADER_SIZE = 4;
    static final int TRAILER_SIZE = 8;
    static final int CHALLENGE_SIZE = 12;
    static final int RESPONSE_SIZE = 36;
    private static final int VERSION = 1;

    /** Positive codes, like a real security class's own error table. */
    static final int BAD_CHECKSUM = 0x7070_0001;
    static final int BAD_MAC = 0x7070_0002;
    static final int BAD_LENGTH = 0x7070_0003;
    static final int BAD_RESPONSE = 0x7070_0004;
    static final int BAD_CHALLENGE = 0x7070_0005;
    static final int NOT_AUTHENTICATED = 0x7070_0006;

    private final long sharedSecret;
    private final Random nonces;

    /** Per-connection state, in the context's slot. */
    static final class State {
        long nonce;
        boolean challenged;
        boolean keyed;
        long sessionKey;
    }

    /**
     * @param sharedSecret what both ends know (a stand-in for rxkad's server key and ticket)
     * @param nonces seeded source of challenge nonces (deterministic tests)
     */
    public ToyChecksumSecurityClass(long sharedSecret, Random nonces) {
        this.sharedSecret = sharedSecret;
        this.nonces = nonces;
    }

    @Override
    public int securityIndex() {
        return INDEX;
    }

    @Override
    public String name() {
        return "toy";
    }

    @Override
    public void newConnection(SecurityContext ctx) {
        ctx.setState(new State());
    }

    @Override
    public void destroyConnection(SecurityContext ctx) {
        ctx.setState(null);
    }

    @Override
    public int headerSize(SecurityContext ctx) {
        return HEADER_SIZE;
    }

    @Override
    public int trailerSize(SecurityContext ctx) {
        return TRAILER_SIZE;
    }

    @Override
    public int prepareOutgoing(SecurityContext ctx, int channel, int callNumber, int seq, ByteBuf packet)
            throws SecurityAbortException {
        State state = (State) ctx.state();
        if (!state.keyed) {
            throw new SecurityAbortException(NOT_AUTHENTICATED, "no session key yet");
        }
        int start = packet.readerIndex();
        int dataLength = packet.readableBytes() - HEADER_SIZE;
        packet.setInt(start, dataLength);
        crypt(state.sessionKey, seq, packet, start + HEADER_SIZE, dataLength);
        long mac = mac(ctx, state.sessionKey, channel, callNumber, seq, packet, start, HEADER_SIZE + dataLength);
        packet.writeLong(mac);
        return spare(state.sessionKey, channel, callNumber, seq);
    }

    @Override
    public int checkIncoming(SecurityContext ctx, PacketHeader header, ByteBuf packet) {
        State state = (State) ctx.state();
        if (!state.keyed) {
            return NOT_AUTHENTICATED;
        }
        int channel = header.channel();
        if (header.spare() != spare(state.sessionKey, channel, header.callNumber(), header.seq())) {
            return BAD_CHECKSUM;
        }
        int start = packet.readerIndex();
        int length = packet.readableBytes();
        if (length < HEADER_SIZE + TRAILER_SIZE) {
            return BAD_LENGTH;
        }
        int dataLength = packet.getInt(start);
        if (dataLength != length - HEADER_SIZE - TRAILER_SIZE) {
            return BAD_LENGTH;
        }
        long mac = mac(ctx, state.sessionKey, channel, header.callNumber(), header.seq(), packet, start,
                HEADER_SIZE + dataLength);
        if (mac != packet.getLong(start + HEADER_SIZE + dataLength)) {
            return BAD_MAC;
        }
        crypt(state.sessionKey, header.seq(), packet, start + HEADER_SIZE, dataLength);
        packet.setIndex(start + HEADER_SIZE, start + HEADER_SIZE + dataLength);
        return 0;
    }

    @Override
    public boolean isAuthenticated(SecurityContext ctx) {
        return ((State) ctx.state()).keyed;
    }

    @Override
    public Optional<byte[]> challengeBody(SecurityContext ctx) {
        State state = (State) ctx.state();
        if (!state.challenged) {
            state.nonce = nonces.nextLong();
            state.challenged = true;
        }
        return Optional.of(ByteBuffer.allocate(CHALLENGE_SIZE).putInt(VERSION).putLong(state.nonce).array());
    }

    @Override
    public byte[] responseBody(SecurityContext ctx, byte[] challengeBody) throws SecurityAbortException {
        if (challengeBody.length != CHALLENGE_SIZE) {
            throw new SecurityAbortException(BAD_CHALLENGE, "challenge of " + challengeBody.length + " bytes");
        }
        ByteBuffer challenge = ByteBuffer.wrap(challengeBody);
        if (challenge.getInt() != VERSION) {
            throw new SecurityAbortException(BAD_CHALLENGE, "unknown challenge version");
        }
        long nonce = challenge.getLong();
        ByteBuffer response = ByteBuffer.allocate(RESPONSE_SIZE).putInt(VERSION).putLong(nonce + 1);
        for (int channel = 0; channel < 4; channel++) {
            response.putInt(ctx.callNumber(channel));
        }
        response.putLong(responseMac(ctx, response.array()));
        State state = (State) ctx.state();
        state.sessionKey = mix(sharedSecret ^ nonce);
        state.keyed = true;
        return response.array();
    }

    @Override
    public int checkResponse(SecurityContext ctx, byte[] responseBody) {
        State state = (State) ctx.state();
        if (!state.challenged || responseBody.length != RESPONSE_SIZE) {
            return BAD_RESPONSE;
        }
        ByteBuffer response = ByteBuffer.wrap(responseBody);
        if (response.getInt() != VERSION || response.getLong() != state.nonce + 1) {
            return BAD_RESPONSE;
        }
        int[] callNumbers = new int[4];
        for (int channel = 0; channel < 4; channel++) {
            callNumbers[channel] = response.getInt();
        }
        if (response.getLong() != responseMac(ctx, responseBody)) {
            return BAD_RESPONSE;
        }
        state.sessionKey = mix(sharedSecret ^ state.nonce);
        state.keyed = true;
        ctx.setResponseCallNumbers(callNumbers);
        return 0;
    }

    /** MAC over the response's first 28 bytes, bound to this connection's epoch and cid. */
    private long responseMac(SecurityContext ctx, byte[] response) {
        long h = mix(sharedSecret ^ ((long) ctx.epoch() << 32) ^ Integer.toUnsignedLong(ctx.cid()));
        for (int i = 0; i < RESPONSE_SIZE - 8; i++) {
            h = mix(h ^ response[i]);
        }
        return h;
    }

    private static int spare(long key, int channel, int callNumber, int seq) {
        int sum = (int) (mix(key ^ ((long) callNumber << 32) ^ ((long) channel << 30) ^ Integer.toUnsignedLong(seq))
                >>> 48);
        return sum == 0 ? 1 : sum;
    }

    private static long mac(SecurityContext ctx, long key, int channel, int callNumber, int seq, ByteBuf packet,
                            int from, int length) {
        long h = mix(key ^ ((long) ctx.epoch() << 32) ^ Integer.toUnsignedLong(ctx.cid() | channel));
        h = mix(h ^ ((long) callNumber << 32) ^ Integer.toUnsignedLong(seq));
        for (int i = 0; i < length; i++) {
            h = mix(h ^ packet.getByte(from + i));
        }
        return h;
    }

    /** XOR with a keystream of (key, seq): applying it twice restores the bytes. */
    private static void crypt(long key, int seq, ByteBuf packet, int from, int length) {
        long block = 0;
        for (int i = 0; i < length; i++) {
            if ((i & 7) == 0) {
                block = mix(key ^ ((long) seq << 32) ^ i);
            }
            packet.setByte(from + i, packet.getByte(from + i) ^ (int) (block >>> ((i & 7) * 8)));
        }
    }

    /** SplitMix64 finalizer: a cheap, well-mixed 64-bit hash step. */
    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }
}
