// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.security.rxkad.handshake;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.Arrays;
import org.rx4j.security.SecurityAbortException;
import org.rx4j.security.rxkad.RxkadCodes;
import org.rx4j.security.rxkad.RxkadLevel;
import org.rx4j.security.rxkad.SessionKey;
import org.rx4j.security.rxkad.crypto.Fcrypt;
import org.rx4j.security.rxkad.crypto.FcryptPcbc;

/**
 * The payload of an rxkad version-2 RESPONSE packet (type 7, docs/security.md "Handshake"), as the client builds it
 * and as the server finds it after opening the sealed part. A value type: immutable (arrays are copied in and out).
 *
 * <p>Wire layout, big-endian: version (2) 0..3, spare (0) 4..7; the sealed part 8..47, PCBC-encrypted under the
 * session key from the session IV: epoch 8..11, connection id without channel bits 12..15, checksum 16..19,
 * security index 20..23, the four channels' call numbers 24..39, nonce + 1 40..43, level 44..47; then kvno 48..51,
 * ticket length 52..55 and the ticket. The checksum is a multiplicative hash (start 1000003, multiplier
 * 0x10204081, one step per byte) of the 56 plaintext header bytes with the checksum word taken as 0.
 *
 * <p>Errors a server reports for a bad RESPONSE carry the RXKAD codes OpenAFS uses ({@link RxkadCodes}); messages
 * never include the ticket or key material.
 */
public final class RxkadResponse {
    /** Bytes before the ticket. */
    public static final int HEADER_SIZE = 56;
    /** Shortest ticket rxkad accepts, bytes. */
    public static final int MIN_TICKET = 32;
    /** Longest ticket rxkad accepts, bytes. */
    public static final int MAX_TICKET = 12000;
    /** Channels per connection, so call numbers in a RESPONSE. */
    public static final int CHANNELS = 4;

    private static final int SEALED_OFFSET = 8;
    private static final int SEALED_SIZE = 40;
    private static final int CHECKSUM_OFFSET = 16;

    private final int epoch;
    private final int cid;
    private final int securityIndex;
    private final int[] callNumbers;
    private final int nonceReply;
    private final RxkadLevel level;
    private final int kvno;
    private final byte[] ticket;

    /**
     * @param epoch the connection's epoch
     * @param cid the connection id; the channel bits are cleared
     * @param securityIndex the connection's security index (2 for rxkad)
     * @param callNumbers the four channels' current call numbers, each 0..2^31-1 (copied)
     * @param nonceReply the challenge's nonce plus one
     * @param level the level the client runs the connection at
     * @param kvno the ticket's key version (0..255 for v4-style tickets, 213 or 256 for Kerberos 5 forms)
     * @param ticket the ticket, 32..12,000 bytes (copied)
     * @throws IllegalArgumentException if a call number is negative, there are not 4, or the ticket length is
     *     outside 32..12,000
     * @throws NullPointerException if an argument is null
     */
    public RxkadResponse(int epoch, int cid, int securityIndex, int[] callNumbers, int nonceReply, RxkadLevel level,
                         int kvno, byte[] ticket) {
        if (callNumbers.length != CHANNELS) {
            throw new IllegalArgumentException("need 4 call numbers, got " + callNumbers.length);
        }
        for (int c : callNumbers) {
            if (c < 0) {
                throw new IllegalArgumentException("call number " + Integer.toUnsignedString(c)
                        + " is above 2^31-1");
            }
        }
        if (ticket.length < MIN_TICKET || ticket.length > MAX_TICKET) {
            throw new IllegalArgumentException("ticket of " + ticket.length + " bytes is outside 32..12000");
        }
        if (level == null) {
            throw new NullPointerException("level");
        }
        this.epoch = epoch;
        this.cid = cid & ~3;
        this.securityIndex = securityIndex;
        this.callNumbers = callNumbers.clone();
        this.nonceReply = nonceReply;
        this.level = level;
        this.kvno = kvno;
        this.ticket = ticket.clone();
    }

    /**
     * Client side: the answer to a CHALLENGE, refused if the server wants more than the client's level.
     *
     * @param challenge the CHALLENGE received
     * @param level the client's level for this connection
     * @param epoch the connection's epoch
     * @param cid the connection id
     * @param securityIndex the connection's security index
     * @param callNumbers the four channels' current call numbers
     * @param kvno the ticket's key version
     * @param ticket the ticket, 32..12,000 bytes
     * @return the response to {@link #encode}
     * @throws SecurityAbortException {@link RxkadCodes#RXKADLEVELFAIL} if the challenge's minimum level is above
     *     {@code level}
     * @throws IllegalArgumentException as the constructor
     */
    public static RxkadResponse answer(RxkadChallenge challenge, RxkadLevel level, int epoch, int cid,
                                       int securityIndex, int[] callNumbers, int kvno, byte[] ticket)
            throws SecurityAbortException {
        if (challenge.minLevel().compareTo(level) > 0) {
            throw new SecurityAbortException(RxkadCodes.RXKADLEVELFAIL, "rxkad server wants level "
                    + challenge.minLevel() + ", this connection runs at " + level);
        }
        return new RxkadResponse(epoch, cid, securityIndex, callNumbers, challenge.nonce() + 1, level, kvno, ticket);
    }

    /** @return the epoch of the connection the response was made for */
    public int epoch() {
        return epoch;
    }

    /** @return the connection id (channel bits 0) */
    public int cid() {
        return cid;
    }

    /** @return the security index of the connection */
    public int securityIndex() {
        return securityIndex;
    }

    /**
     * @param channel 0..3
     * @return that channel's call number when the client answered
     * @throws IndexOutOfBoundsException if channel is not 0..3
     */
    public int callNumber(int channel) {
        return callNumbers[channel];
    }

    /** @return the challenge's nonce plus one */
    public int nonceReply() {
        return nonceReply;
    }

    /** @return the level the client asks for */
    public RxkadLevel level() {
        return level;
    }

    /** @return the ticket's key version */
    public int kvno() {
        return kvno;
    }

    /** @return a copy of the ticket */
    public byte[] ticket() {
        return ticket.clone();
    }

    /** @return bytes {@link #encode} writes: the 56-byte header plus the ticket */
    public int encodedLength() {
        return HEADER_SIZE + ticket.length;
    }

    /**
     * Writes the RESPONSE payload at the writer index, sealing its middle part under {@code key}.
     *
     * @param key the session key the ticket carries
     * @param out the buffer, with room for {@link #encodedLength()} bytes; the caller keeps ownership
     */
    public void encode(SessionKey key, ByteBuf out) {
        byte[] header = plainHeader();
        putInt(header, CHECKSUM_OFFSET, checksum(header));
        FcryptPcbc.encrypt(new Fcrypt(key.iv()), key.iv(), Unpooled.wrappedBuffer(header), SEALED_OFFSET, SEALED_SIZE);
        out.writeBytes(header).writeBytes(ticket);
    }

    /**
     * Server side: checks that the response answers this connection's challenge (OpenAFS's order of checks).
     *
     * @param connEpoch the server connection's epoch
     * @param connCid the server connection's id (channel bits ignored)
     * @param connSecurityIndex the connection's security index
     * @param nonce the nonce of the challenge sent
     * @param minLevel the least level the server accepts
     * @throws SecurityAbortException {@link RxkadCodes#RXKADSEALEDINCON} if epoch, connection id or security index
     *     differ; {@link RxkadCodes#RXKADOUTOFSEQUENCE} if the nonce reply is not {@code nonce + 1};
     *     {@link RxkadCodes#RXKADLEVELFAIL} if the level is below {@code minLevel}
     */
    public void verify(int connEpoch, int connCid, int connSecurityIndex, int nonce, RxkadLevel minLevel)
            throws SecurityAbortException {
        if (epoch != connEpoch || cid != (connCid & ~3) || securityIndex != connSecurityIndex) {
            throw new SecurityAbortException(RxkadCodes.RXKADSEALEDINCON,
                    "rxkad RESPONSE was made for another connection");
        }
        if (nonceReply != nonce + 1) {
            throw new SecurityAbortException(RxkadCodes.RXKADOUTOFSEQUENCE,
                    "rxkad RESPONSE answers another CHALLENGE");
        }
        if (level.compareTo(minLevel) < 0) {
            throw new SecurityAbortException(RxkadCodes.RXKADLEVELFAIL,
                    "rxkad RESPONSE level " + level + " is below the minimum " + minLevel);
        }
    }

    /**
     * Server side, first step: reads the clear parts of a RESPONSE payload (version 2 only). The sealed part is
     * opened later with the session key found in the ticket ({@link Sealed#open}).
     *
     * @param buf the buffer; not modified, retained or released
     * @param index absolute index of the payload
     * @param length bytes of payload; bytes past the ticket are ignored, as OpenAFS does
     * @return the response with its sealed part still closed
     * @throws SecurityAbortException {@link RxkadCodes#RXKADPACKETSHORT} if the payload is shorter than 56 bytes or
     *     than its ticket; {@link RxkadCodes#RXKADTICKETLEN} if the ticket length is outside 32..12,000
     */
    public static Sealed decode(ByteBuf buf, int index, int length) throws SecurityAbortException {
        if (length < HEADER_SIZE) {
            throw new SecurityAbortException(RxkadCodes.RXKADPACKETSHORT,
                    "rxkad RESPONSE of " + length + " bytes: needs at least 56");
        }
        int ticketLength = buf.getInt(index + 52);
        if (ticketLength < MIN_TICKET || ticketLength > MAX_TICKET) {
            throw new SecurityAbortException(RxkadCodes.RXKADTICKETLEN,
                    "rxkad ticket length " + ticketLength + " is outside 32..12000");
        }
        if (length - HEADER_SIZE < ticketLength) {
            throw new SecurityAbortException(RxkadCodes.RXKADPACKETSHORT,
                    "rxkad RESPONSE of " + length + " bytes is shorter than its " + ticketLength + "-byte ticket");
        }
        byte[] header = new byte[HEADER_SIZE];
        buf.getBytes(index, header);
        byte[] ticket = new byte[ticketLength];
        buf.getBytes(index + HEADER_SIZE, ticket);
        return new Sealed(header, ticket);
    }

    /** The 56 plaintext header bytes, checksum word 0. */
    private byte[] plainHeader() {
        byte[] h = new byte[HEADER_SIZE];
        putInt(h, 0, RxkadChallenge.VERSION_2);
        putInt(h, 8, epoch);
        putInt(h, 12, cid);
        putInt(h, 20, securityIndex);
        for (int i = 0; i < CHANNELS; i++) {
            putInt(h, 24 + 4 * i, callNumbers[i]);
        }
        putInt(h, 40, nonceReply);
        putInt(h, 44, level.wire());
        putInt(h, 48, kvno);
        putInt(h, 52, ticket.length);
        return h;
    }

    /**
     * The RESPONSE checksum of a 56-byte plaintext header, the checksum word counted as 0.
     *
     * @param header the plaintext header; not modified
     * @return the checksum, to be stored big-endian at bytes 16..19
     */
    static int checksum(byte[] header) {
        int sum = 1000003;
        for (int i = 0; i < HEADER_SIZE; i++) {
            int b = i >= CHECKSUM_OFFSET && i < CHECKSUM_OFFSET + 4 ? 0 : header[i] & 0xff;
            sum = b + sum * 0x10204081;
        }
        return sum;
    }

    private static void putInt(byte[] b, int off, int v) {
        b[off] = (byte) (v >>> 24);
        b[off + 1] = (byte) (v >>> 16);
        b[off + 2] = (byte) (v >>> 8);
        b[off + 3] = (byte) v;
    }

    private static int getInt(byte[] b, int off) {
        return (b[off] & 0xff) << 24 | (b[off + 1] & 0xff) << 16 | (b[off + 2] & 0xff) << 8 | (b[off + 3] & 0xff);
    }

    /** @return the response without the ticket bytes */
    @Override
    public String toString() {
        return "RxkadResponse[epoch=" + Integer.toUnsignedString(epoch) + ", cid=" + Integer.toUnsignedString(cid)
                + ", securityIndex=" + securityIndex + ", callNumbers=" + Arrays.toString(callNumbers)
                + ", level=" + level + ", kvno=" + kvno + ", ticket=" + ticket.length + " bytes]";
    }

    /**
     * A RESPONSE whose clear parts are read and whose sealed part is not yet opened. Immutable.
     */
    public static final class Sealed {
        private final byte[] header;
        private final byte[] ticket;

        private Sealed(byte[] header, byte[] ticket) {
            this.header = header;
            this.ticket = ticket;
        }

        /** @return the version word (2 from OpenAFS clients; not checked, as OpenAFS does not) */
        public int version() {
            return getInt(header, 0);
        }

        /** @return the ticket's key version: selects the server key or the ticket form */
        public int kvno() {
            return getInt(header, 48);
        }

        /** @return a copy of the ticket */
        public byte[] ticket() {
            return ticket.clone();
        }

        /**
         * Opens the sealed part with the session key found in the ticket and checks its checksum.
         *
         * @param key the session key
         * @return the response
         * @throws SecurityAbortException {@link RxkadCodes#RXKADSEALEDINCON} if the checksum does not match (wrong key
         *     or altered bytes) or a call number is negative; {@link RxkadCodes#RXKADLEVELFAIL} if the level is not
         *     0..2
         */
        public RxkadResponse open(SessionKey key) throws SecurityAbortException {
            byte[] h = header.clone();
            FcryptPcbc.decrypt(new Fcrypt(key.iv()), key.iv(), Unpooled.wrappedBuffer(h), SEALED_OFFSET, SEALED_SIZE);
            if (getInt(h, CHECKSUM_OFFSET) != checksum(h)) {
                throw new SecurityAbortException(RxkadCodes.RXKADSEALEDINCON, "rxkad RESPONSE checksum mismatch");
            }
            if ((getInt(h, 12) & 3) != 0) {
                throw new SecurityAbortException(RxkadCodes.RXKADSEALEDINCON,
                        "rxkad RESPONSE names a connection id with channel bits");
            }
            int[] calls = new int[CHANNELS];
            for (int i = 0; i < CHANNELS; i++) {
                calls[i] = getInt(h, 24 + 4 * i);
                if (calls[i] < 0) {
                    throw new SecurityAbortException(RxkadCodes.RXKADSEALEDINCON,
                            "rxkad RESPONSE carries a negative call number");
                }
            }
            RxkadLevel level = RxkadLevel.ofWire(getInt(h, 44));
            return new RxkadResponse(getInt(h, 8), getInt(h, 12), getInt(h, 20), calls, getInt(h, 40), level,
                    kvno(), ticket);
        }

        /** @return a description without the ticket bytes */
        @Override
        public String toString() {
            return "RxkadResponse.Sealed[kvno=" + kvno() + ", ticket=" + ticket.length + " bytes]";
        }
    }
}
