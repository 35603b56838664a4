// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.security.rxkad.crypto;

import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Arrays;
import javax.crypto.Cipher;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * Kerberos 5 enctype des3-cbc-sha1-kd (16, RFC 3961 section 6.3), for rxkad_krb5 keys of that type (docs/security.md
 * "Kerberos 5"): Ke and Ki are derived from the 24-byte key and the usage (DK with constants usage|0xAA and
 * usage|0x55: n-fold to one 8-byte block, 3DES-encrypted repeatedly to 21 bytes, each 7 bytes spread to 8 with DES
 * parity); the ciphertext is 3DES-CBC (zero IV) under Ke of an 8-byte random confounder and the plaintext, padded
 * with zeros to 8 bytes, followed by HMAC-SHA1 of the same bytes under Ki. 3DES and HMAC-SHA1 are the JDK's. The
 * padding stays on the decrypted plaintext (DER readers ignore what follows the value). Key bytes never appear in
 * messages.
 */
public final class Des3CbcSha1 {
    /** The enctype number. */
    static final int ENCTYPE = 16;
    /** Key length, bytes. */
    static final int KEY_LENGTH = 24;

    /** Bytes a ciphertext has beyond its padded plaintext: the confounder and the HMAC-SHA1. */
    static final int OVERHEAD = 8 + 20;

    private static final int BLOCK = 8;
    private static final int MAC_LENGTH = 20;

    private Des3CbcSha1() {
    }

    /** @return the ciphertext of {@code plain} under {@code key} for {@code usage} (key length already checked) */
    static byte[] encrypt(byte[] key, int usage, byte[] plain, SecureRandom random) throws GeneralSecurityException {
        byte[] data = new byte[(BLOCK + plain.length + BLOCK - 1) / BLOCK * BLOCK];
        byte[] confounder = new byte[BLOCK];
        random.nextBytes(confounder);
        System.arraycopy(confounder, 0, data, 0, BLOCK);
        System.arraycopy(plain, 0, data, BLOCK, plain.length);
        byte[] c = cbc(Cipher.ENCRYPT_MODE, derive(key, usage, (byte) 0xaa), data);
        byte[] out = Arrays.copyOf(c, c.length + MAC_LENGTH);
        System.arraycopy(Krb5Crypto.mac(derive(key, usage, (byte) 0x55), data), 0, out, c.length, MAC_LENGTH);
        return out;
    }

    /**
     * @return the plaintext without its confounder, with its zero padding
     * @throws GeneralSecurityException if the ciphertext is not whole blocks plus the MAC, or the MAC does not match
     */
    static byte[] decrypt(byte[] key, int usage, byte[] cipher) throws GeneralSecurityException {
        int n = cipher.length - MAC_LENGTH;
        if (n < BLOCK || n % BLOCK != 0) {
            throw new GeneralSecurityException("des3-cbc-sha1 ciphertext of " + cipher.length + " bytes");
        }
        byte[] data = cbc(Cipher.DECRYPT_MODE, derive(key, usage, (byte) 0xaa), Arrays.copyOf(cipher, n));
        if (!MessageDigest.isEqual(Krb5Crypto.mac(derive(key, usage, (byte) 0x55), data),
                Arrays.copyOfRange(cipher, n, cipher.length))) {
            throw new GeneralSecurityException("Kerberos integrity check failed");
        }
        return Arrays.copyOfRange(data, BLOCK, data.length);
    }

    /**
     * @return {@link Krb5Crypto#HEAD} bytes of plaintext after the confounder, unchecked: the two CBC blocks after
     *     it, decrypted with the confounder's cipher block as their IV; null if the ciphertext is shorter
     */
    static byte[] head(byte[] key, int usage, byte[] cipher) throws GeneralSecurityException {
        if (cipher.length < OVERHEAD + Krb5Crypto.HEAD) {
            return null;
        }
        Cipher c = Cipher.getInstance("DESede/CBC/NoPadding");
        c.init(Cipher.DECRYPT_MODE, new SecretKeySpec(derive(key, usage, (byte) 0xaa), "DESede"),
                new IvParameterSpec(cipher, 0, BLOCK));
        return c.doFinal(cipher, BLOCK, Krb5Crypto.HEAD);
    }

    /** DK(key, usage | kind): 21 bytes of {@link Krb5Crypto#dr} with 3DES, each 7 bytes spread to 8 with parity. */
    static byte[] derive(byte[] key, int usage, byte kind) throws GeneralSecurityException {
        byte[] random = Krb5Crypto.dr("DESede", key, BLOCK, usage, kind, 21);
        byte[] out = new byte[KEY_LENGTH];
        for (int k = 0; k < 3; k++) {
            int last = 0;
            for (int j = 0; j < 7; j++) {
                int b = random[7 * k + j] & 0xff;
                out[8 * k + j] = (byte) b;
                last |= (b & 1) << (j + 1);
            }
            out[8 * k + 7] = (byte) last;
        }
        for (int i = 0; i < out.length; i += BLOCK) {
            Blocks.put(out, i, RxkadKdf.withOddParity(Blocks.get(out, i)));
        }
        return out;
    }

    private static byte[] cbc(int mode, byte[] key, byte[] data) throws GeneralSecurityException {
        Cipher c = Cipher.getInstance("DESede/CBC/NoPadding");
        c.init(mode, new SecretKeySpec(key, "DESede"), new IvParameterSpec(new byte[BLOCK]));
        return c.doFinal(data);
    }
}
