// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.security.rxkad.crypto;

import io.netty.buffer.ByteBuf;

/**
 * fcrypt in PCBC mode, the chaining rxkad uses for encrypted packets, the RESPONSE's sealed block and the
 * per-connection checksum value (docs/security.md "fcrypt"). Each plaintext block is XORed with a chaining value
 * before encryption; the next chaining value is plaintext XOR ciphertext of the block just done. rxkad starts every
 * packet from the same IV (the session key's bytes), so nothing carries over from one packet to the next.
 *
 * <p>Lengths are whole blocks: rxkad pads to 8 bytes before it encrypts (see {@link RxkadLevel#preparedLength}),
 * so a partial block here is a caller's bug. Both methods work in place, allocate nothing and return the chaining
 * value after the last block, so a long buffer may be done in segments. Buffers are neither retained nor released;
 * a {@code byte[]} is handled through {@code Unpooled.wrappedBuffer}, which copies nothing.
 */
public final class FcryptPcbc {
    private FcryptPcbc() {
    }

    /**
     * Encrypts {@code length} bytes at {@code index} in place.
     *
     * @param key the key schedule
     * @param iv the chaining value to start from (rxkad: the session key as a big-endian long)
     * @param buf the buffer; the caller keeps ownership
     * @param index absolute index of the first block
     * @param length bytes, a multiple of 8 (0 allowed)
     * @return the chaining value after the last block
     * @throws IllegalArgumentException if {@code length} is negative or not a multiple of 8
     * @throws IndexOutOfBoundsException if the range is not inside the buffer's capacity
     */
    public static long encrypt(Fcrypt key, long iv, ByteBuf buf, int index, int length) {
        checkLength(length);
        long x = iv;
        for (int i = index, end = index + length; i < end; i += Fcrypt.BLOCK_SIZE) {
            long p = buf.getLong(i);
            long c = key.encrypt(p ^ x);
            buf.setLong(i, c);
            x = p ^ c;
        }
        return x;
    }

    /**
     * Decrypts {@code length} bytes at {@code index} in place: the inverse of {@link #encrypt(Fcrypt, long, ByteBuf,
     * int, int)} from the same IV.
     *
     * @param key the key schedule
     * @param iv the chaining value to start from
     * @param buf the buffer; the caller keeps ownership
     * @param index absolute index of the first block
     * @param length bytes, a multiple of 8 (0 allowed)
     * @return the chaining value after the last block
     * @throws IllegalArgumentException if {@code length} is negative or not a multiple of 8
     * @throws IndexOutOfBoundsException if the range is not inside the buffer's capacity
     */
    public static long decrypt(Fcrypt key, long iv, ByteBuf buf, int index, int length) {
        checkLength(length);
        long x = iv;
        for (int i = index, end = index + length; i < end; i += Fcrypt.BLOCK_SIZE) {
            long c = buf.getLong(i);
            long p = key.decrypt(c) ^ x;
            buf.setLong(i, p);
            x = p ^ c;
        }
        return x;
    }

    private static void checkLength(int length) {
        if (length < 0 || (length & (Fcrypt.BLOCK_SIZE - 1)) != 0) {
            throw new IllegalArgumentException("PCBC length must be a non-negative multiple of 8, got " + length);
        }
    }
}
