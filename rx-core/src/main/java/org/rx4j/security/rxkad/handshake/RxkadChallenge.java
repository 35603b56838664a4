// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.security.rxkad.handshake;

import io.netty.buffer.ByteBuf;
import org.rx4j.security.SecurityAbortException;
import org.rx4j.security.rxkad.RxkadCodes;
import org.rx4j.security.rxkad.RxkadLevel;

/**
 * The payload of an rxkad CHALLENGE packet (type 6, docs/security.md "Handshake"): a nonce the client must answer
 * with nonce + 1, and the server's minimum level. Version 2 (16 bytes: version, nonce, level, a zero spare word,
 * all big-endian) is what servers send to clients that checksum their packets; the old form (8 bytes: nonce, level)
 * is decoded too and reported as version 0. A value type: immutable.
 *
 * @param version 2 for the 16-byte form, 0 for the old 8-byte form
 * @param nonce the challenge id (any 32-bit value)
 * @param minLevel the least level the server accepts
 */
public record RxkadChallenge(int version, int nonce, RxkadLevel minLevel) {
    /** The version servers send and {@link #v2} makes. */
    public static final int VERSION_2 = 2;
    /** Payload bytes of the version-2 form. */
    public static final int V2_SIZE = 16;
    /** Payload bytes of the old form. */
    public static final int OLD_SIZE = 8;

    /**
     * @throws NullPointerException if {@code minLevel} is null
     */
    public RxkadChallenge {
        if (minLevel == null) {
            throw new NullPointerException("minLevel");
        }
    }

    /**
     * @param nonce the challenge id
     * @param minLevel the least level the server accepts
     * @return a version-2 challenge
     */
    public static RxkadChallenge v2(int nonce, RxkadLevel minLevel) {
        return new RxkadChallenge(VERSION_2, nonce, minLevel);
    }

    /**
     * Writes the payload at the writer index: 16 bytes for version 2, 8 for the old form.
     *
     * @param out the buffer; the caller keeps ownership
     */
    public void encode(ByteBuf out) {
        if (version == 0) {
            out.writeInt(nonce).writeInt(minLevel.wire());
        } else {
            out.writeInt(version).writeInt(nonce).writeInt(minLevel.wire()).writeInt(0);
        }
    }

    /**
     * Reads a CHALLENGE payload. As OpenAFS clients do, a payload longer than 8 bytes is the version-2 form
     * (whatever its version word says; the spare word and bytes past 16 are ignored), otherwise the old form.
     *
     * @param buf the buffer; not modified, retained or released
     * @param index absolute index of the payload
     * @param length bytes of payload
     * @return the challenge
     * @throws SecurityAbortException {@link RxkadCodes#RXKADPACKETSHORT} if the payload is shorter than its form;
     *     {@link RxkadCodes#RXKADLEVELFAIL} if the level is not 0..2
     */
    public static RxkadChallenge decode(ByteBuf buf, int index, int length) throws SecurityAbortException {
        if (length > OLD_SIZE) {
            if (length < V2_SIZE) {
                throw new SecurityAbortException(RxkadCodes.RXKADPACKETSHORT,
                        "rxkad CHALLENGE of " + length + " bytes: version 2 needs 16");
            }
            return new RxkadChallenge(buf.getInt(index), buf.getInt(index + 4),
                    RxkadLevel.ofWire(buf.getInt(index + 8)));
        }
        if (length < OLD_SIZE) {
            throw new SecurityAbortException(RxkadCodes.RXKADPACKETSHORT,
                    "rxkad CHALLENGE of " + length + " bytes: needs at least 8");
        }
        return new RxkadChallenge(0, buf.getInt(index), RxkadLevel.ofWire(buf.getInt(index + 4)));
    }
}
