// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.security.rxkad.crypto;

import io.netty.buffer.ByteBuf;
import org.rx4j.security.SecurityAbortException;
import org.rx4j.security.rxkad.RxkadCodes;
import org.rx4j.security.rxkad.RxkadLevel;

/**
 * The payload transformation of rxkad's auth and crypt levels (docs/security.md "Levels"): the security header in
 * front of the user data, the padding, and the encryption; and the inverse on receipt. The Rx header's checksum is
 * separate ({@link PacketChecksum}).
 *
 * <p>The first 4 bytes of the security header ("sealed word") hold (seq XOR call number) in their high 16 bits and
 * the user-data length in their low 16 bits. At auth the payload is padded to at least 8 bytes and its first
 * block is fcrypt-encrypted; at crypt the header's second word is 0, the payload is padded to a multiple of 8 and
 * all of it is PCBC-encrypted from the session IV (the IV is reset for every packet). A receiver decrypts, checks the
 * sealed word against the packet's seq and call number, and takes the user-data length from it.
 *
 * <p>Both directions work in place on the payload region of a caller's buffer, allocate nothing, and neither retain
 * nor release the buffer: the caller owns it before and after.
 */
public final class PacketProtection {
    private PacketProtection() {
    }

    /**
     * Seals one DATA packet's payload in place. Before the call the region {@code index .. index +
     * level.preparedLength(userLength)} must be writable, with the user data at {@code index + level.headerSize()};
     * this writes the security header and zero padding and encrypts. At clear nothing changes.
     *
     * @param level the connection's level
     * @param key the session key schedule
     * @param iv the session IV (the session key as a big-endian long)
     * @param buf the packet buffer; the caller keeps ownership
     * @param index absolute index of the payload (just after the Rx header)
     * @param userLength bytes of user data, 0..65535
     * @param callNumber the packet's call number
     * @param seq the packet's sequence number
     * @return the payload length to send, {@code level.preparedLength(userLength)}
     * @throws IllegalArgumentException if {@code userLength} is outside 0..65535
     * @throws IndexOutOfBoundsException if the prepared region exceeds the buffer's capacity
     */
    public static int seal(RxkadLevel level, Fcrypt key, long iv, ByteBuf buf, int index, int userLength,
                           int callNumber, int seq) {
        int prepared = level.preparedLength(userLength);
        if (level == RxkadLevel.CLEAR) {
            return prepared;
        }
        buf.setInt(index, sealedWord(callNumber, seq, userLength));
        int dataEnd = index + level.headerSize() + userLength;
        buf.setZero(dataEnd, index + prepared - dataEnd);
        if (level == RxkadLevel.AUTH) {
            key.encrypt(buf, index);
        } else {
            buf.setInt(index + 4, 0);
            FcryptPcbc.encrypt(key, iv, buf, index, prepared);
        }
        return prepared;
    }

    /**
     * Opens one received DATA packet's payload in place: decrypts it and checks the sealed word. At clear the
     * payload is user data as it is.
     *
     * @param level the connection's level
     * @param key the session key schedule
     * @param iv the session IV
     * @param buf the packet buffer; the caller keeps ownership
     * @param index absolute index of the payload (just after the Rx header)
     * @param length bytes of payload received
     * @param callNumber the packet's call number
     * @param seq the packet's sequence number
     * @return bytes of user data, which start at {@code index + level.headerSize()}
     * @throws SecurityAbortException {@link RxkadCodes#RXKADSEALEDINCON} if the payload is shorter than a block
     *     (or not whole blocks at crypt) or the sealed word does not match seq and call number;
     *     {@link RxkadCodes#RXKADDATALEN} if the sealed length exceeds the payload
     * @throws IndexOutOfBoundsException if the payload exceeds the buffer's capacity
     */
    public static int open(RxkadLevel level, Fcrypt key, long iv, ByteBuf buf, int index, int length,
                           int callNumber, int seq) throws SecurityAbortException {
        if (level == RxkadLevel.CLEAR) {
            return length;
        }
        if (length < Fcrypt.BLOCK_SIZE
                || (level == RxkadLevel.CRYPT && (length & (Fcrypt.BLOCK_SIZE - 1)) != 0)) {
            throw new SecurityAbortException(RxkadCodes.RXKADSEALEDINCON,
                    "rxkad " + level + " payload of " + length + " bytes is not whole blocks");
        }
        if (level == RxkadLevel.AUTH) {
            key.decrypt(buf, index);
        } else {
            FcryptPcbc.decrypt(key, iv, buf, index, length);
        }
        int word = buf.getInt(index);
        if ((word >>> 16) != ((seq ^ callNumber) & 0xffff)) {
            throw new SecurityAbortException(RxkadCodes.RXKADSEALEDINCON,
                    "rxkad sealed word does not match the packet's seq and call number");
        }
        int userLength = word & 0xffff;
        if (userLength > length - level.headerSize()) {
            throw new SecurityAbortException(RxkadCodes.RXKADDATALEN,
                    "rxkad sealed length " + userLength + " exceeds the payload of " + length + " bytes");
        }
        return userLength;
    }

    /** The security header's first word: (seq XOR call number) low 16 bits, then the user-data length. */
    private static int sealedWord(int callNumber, int seq, int userLength) {
        return (((seq ^ callNumber) & 0xffff) << 16) | userLength;
    }
}
