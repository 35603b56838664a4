// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.security.rxkad.crypto;

import java.security.GeneralSecurityException;
import javax.crypto.Cipher;
import javax.crypto.spec.SecretKeySpec;

/**
 * Single DES in PCBC mode with the key as IV, the sealing of v4-style tickets (docs/security.md "Tickets"). DES
 * comes from the JDK's provider (ECB: one block at a time to encrypt, the whole input in one call to decrypt); the
 * chaining is done here since the JDK has no PCBC.
 */
public final class DesPcbc {
    private DesPcbc() {
    }

    /**
     * Makes the JDK's DES ready now (its provider looked up, the crypto policy read, the cipher's classes loaded), so
     * that a server's first RESPONSE does not pay for it (docs/embedding.md "Start-up time"). Does nothing when the
     * JDK has no DES ({@link #apply} then reports it).
     */
    public static void warmUp() {
        try {
            Cipher des = Cipher.getInstance("DES/ECB/NoPadding");
            des.init(Cipher.DECRYPT_MODE, new SecretKeySpec(new byte[8], "DES"));
            des.doFinal(new byte[8]);
        } catch (GeneralSecurityException e) {
            // No DES: the first ticket's unsealing says so, with its cause.
        }
    }

    /**
     * Encrypts or decrypts {@code data} in place.
     *
     * @param key the 8-byte DES key as a big-endian long; also the IV
     * @param data whole 8-byte blocks
     * @param encrypt true to encrypt, false to decrypt
     * @throws IllegalStateException if the JDK provides no DES
     */
    public static void apply(long key, byte[] data, boolean encrypt) {
        byte[] k = new byte[8];
        Blocks.put(k, 0, key);
        Cipher des;
        try {
            des = Cipher.getInstance("DES/ECB/NoPadding");
            des.init(encrypt ? Cipher.ENCRYPT_MODE : Cipher.DECRYPT_MODE, new SecretKeySpec(k, "DES"));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("DES is not available", e);
        }
        if (!encrypt) {
            decrypt(des, key, data);
            return;
        }
        byte[] block = new byte[8];
        long x = key;
        for (int i = 0; i < data.length; i += 8) {
            long in = Blocks.get(data, i);
            Blocks.put(block, 0, in ^ x);
            try {
                des.doFinal(block, 0, 8, block, 0);
            } catch (GeneralSecurityException e) {
                throw new IllegalStateException("DES block failed", e);
            }
            long out = Blocks.get(block, 0);
            Blocks.put(data, i, out);
            x = in ^ out;
        }
    }

    /**
     * PCBC decryption in one cipher call: each plaintext block is D(C[i]) xor (P[i-1] xor C[i-1]), and D(C[i])
     * depends on the cipher text alone, so every block is ECB-decrypted at once and the chaining applied after
     * (encryption cannot do this: each block's input needs the previous output).
     */
    private static void decrypt(Cipher des, long key, byte[] data) {
        byte[] plain = new byte[data.length];
        try {
            des.doFinal(data, 0, data.length, plain, 0);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("DES decryption failed", e);
        }
        long x = key;
        for (int i = 0; i < data.length; i += 8) {
            long in = Blocks.get(data, i);
            long out = Blocks.get(plain, i) ^ x;
            Blocks.put(data, i, out);
            x = in ^ out;
        }
    }
}
