// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.security.rxkad.crypto;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.Arrays;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * rxkad-kdf (draft-kaduk-afs3-rxkad-k5-kdf; docs/security.md "fcrypt"): derives the 8-byte rxkad session key from
 * a Kerberos 5 session key that is not a single-DES key. NIST SP 800-108 counter mode with HMAC-MD5 as the PRF:
 * for a one-byte counter i = 1, 2, ..., 255, the first 8 bytes of HMAC-MD5(key, i | "rxkad" | 0x00 | L), with L the
 * output size in bits (64) as a big-endian 32-bit integer; DES odd parity is set and the first result that is not
 * one of the 16 weak or semi-weak DES keys is the key. {@link #forEnctype} picks the input for a Kerberos enctype.
 *
 * <p>Key material is never put in exception messages.
 */
public final class RxkadKdf {
    /** The label and its NUL separator. */
    private static final byte[] LABEL = "rxkad\0".getBytes(StandardCharsets.US_ASCII);
    /** L, the output length in bits, big-endian. */
    private static final byte[] OUTPUT_BITS = {0, 0, 0, 64};
    /** The weak and semi-weak DES keys (FIPS 74), with odd parity. */
    private static final long[] WEAK = {
        0x0101010101010101L, 0xfefefefefefefefeL, 0xe0e0e0e0f1f1f1f1L, 0x1f1f1f1f0e0e0e0eL,
        0x01fe01fe01fe01feL, 0xfe01fe01fe01fe01L, 0x1fe01fe00ef10ef1L, 0xe01fe01ff10ef10eL,
        0x01e001e001f101f1L, 0xe001e001f101f101L, 0x1ffe1ffe0efe0efeL, 0xfe1ffe1ffe0efe0eL,
        0x011f011f010e010eL, 0x1f011f010e010e01L, 0xe0fee0fef1fef1feL, 0xfee0fee0fef1fef1L,
    };

    private RxkadKdf() {
    }

    /**
     * Derives the rxkad session key.
     *
     * @param key the Kerberos 5 session key bytes (for 3DES enctypes, after their parity bits are removed), at least 7
     * @return the 8-byte key with odd parity, as a big-endian long
     * @throws IllegalArgumentException if {@code key} is shorter than 7 bytes, or all 255 candidates are weak
     * @throws IllegalStateException if the JDK has no HMAC-MD5
     */
    public static long derive(byte[] key) {
        if (key.length < 7) {
            throw new IllegalArgumentException("rxkad-kdf needs a key of at least 7 bytes, got " + key.length);
        }
        Mac mac;
        try {
            mac = Mac.getInstance("HmacMD5");
            mac.init(new SecretKeySpec(key, "HmacMD5"));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacMD5 is not available", e);
        }
        for (int i = 1; i <= 255; i++) {
            mac.update((byte) i);
            mac.update(LABEL);
            mac.update(OUTPUT_BITS);
            long candidate = withOddParity(Blocks.get(Arrays.copyOf(mac.doFinal(), 8), 0));
            if (!isWeak(candidate)) {
                return candidate;
            }
        }
        throw new IllegalArgumentException("rxkad-kdf found only weak DES keys");
    }

    /**
     * The rxkad session key for a Kerberos 5 session key of {@code enctype}, as rxkad-k5 servers derive it: single
     * DES keys (enctypes 1, 2, 3) are used as they are; 3DES keys (5, 7, 16) lose their parity bits (each 8-byte
     * block becomes 7 bytes, its last byte's bits filling the others' low bits) and go through {@link #derive};
     * other enctypes (AES 17 and 18, RC4 23, ...) go through {@link #derive} as they are.
     *
     * @param enctype the Kerberos enctype of the session key
     * @param key the key bytes
     * @return the 8-byte rxkad key as a big-endian long
     * @throws IllegalArgumentException for enctypes rxkad-k5 does not use (negative, 0, 4, 6, 8..15), a DES key
     *     that is not 8 bytes, a 3DES key that is not whole 8-byte blocks, or a key shorter than 7 bytes
     */
    public static long forEnctype(int enctype, byte[] key) {
        switch (enctype) {
            case 1, 2, 3 -> {
                if (key.length != 8) {
                    throw new IllegalArgumentException("DES session key of " + key.length + " bytes");
                }
                return Blocks.get(key, 0);
            }
            case 5, 7, 16 -> {
                return derive(withoutParity(key));
            }
            case 0, 4, 6, 8, 9, 10, 11, 12, 13, 14, 15 ->
                throw new IllegalArgumentException("enctype " + enctype + " cannot carry an rxkad session key");
            default -> {
                if (enctype < 0) {
                    throw new IllegalArgumentException("negative enctype " + enctype);
                }
                return derive(key);
            }
        }
    }

    /** Each 8-byte block to 7 bytes: the 8th byte's bits 1..7 become the low bits of bytes 0..6 (RFC 3961's 3DES). */
    private static byte[] withoutParity(byte[] key) {
        if (key.length == 0 || key.length % 8 != 0) {
            throw new IllegalArgumentException("3DES session key of " + key.length + " bytes");
        }
        byte[] out = new byte[key.length / 8 * 7];
        for (int blk = 0; blk < key.length / 8; blk++) {
            int last = (key[8 * blk + 7] & 0xff) >>> 1;
            for (int j = 0; j < 7; j++) {
                out[7 * blk + j] = (byte) ((key[8 * blk + j] & 0xfe) | ((last >>> j) & 1));
            }
        }
        return out;
    }

    /**
     * @param key 8 key bytes as a big-endian long
     * @return the key with each byte's low bit set so that the byte has an odd number of 1 bits
     */
    public static long withOddParity(long key) {
        long out = 0;
        for (int shift = 56; shift >= 0; shift -= 8) {
            int b = (int) (key >>> shift) & 0xfe;
            out |= (long) (b | (~Integer.bitCount(b) & 1)) << shift;
        }
        return out;
    }

    /**
     * @param key 8 key bytes with odd parity, as a big-endian long
     * @return whether it is one of the 16 weak or semi-weak DES keys
     */
    public static boolean isWeak(long key) {
        for (long w : WEAK) {
            if (w == key) {
                return true;
            }
        }
        return false;
    }
}
