package org.rx4j.security.rxkad;

import java.security.GeneralSecurityException;
import javax.crypto.Cipher;
import javax.crypto.spec.SecretKeySpec;

/**
 * Single DES in PCBC mode with the key as IV, the sealing of v4-style tickets (docs/security.md "Tickets"). DES
 * comes from the JDK's provider (ECB, one block at a time); the chaining is done here since the JDK has no PCBC.
 */
final class DesPcbc {
    private DesPcbc() {
    }

    /**
     * Encrypts or decrypts {@code data} in place.
     *
     * @param key the 8-byte DES key as a big-endian long; also the IV
     * @param data whole 8-byte blocks
     * @param encrypt true to encrypt, false to decrypt
     * @throws IllegalStateException if the JDK provides no DES
     */
    static void apply(long key, byte[] data, boolean encrypt) {
        byte[] k = new byte[8];
        Blocks.put(k, 0, key);
        Cipher des;
        try {
            des = Cipher.getInstance("DES/ECB/NoPadding");
            des.init(encrypt ? Cipher.ENCRYPT_MODE : Cipher.DECRYPT_MODE, new SecretKeySpec(k, "DES"));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("DES is not available", e);
        }
        byte[] block = new byte[8];
        long x = key;
        for (int i = 0; i < data.length; i += 8) {
            long in = Blocks.get(data, i);
            Blocks.put(block, 0, encrypt ? in ^ x : in);
            try {
                des.doFinal(block, 0, 8, block, 0);
            } catch (GeneralSecurityException e) {
                throw new IllegalStateException("DES block failed", e);
            }
            long out = encrypt ? Blocks.get(block, 0) : Blocks.get(block, 0) ^ x;
            Blocks.put(data, i, out);
            x = in ^ out;
        }
    }
}
