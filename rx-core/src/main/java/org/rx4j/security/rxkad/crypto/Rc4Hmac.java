// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.security.rxkad.crypto;

import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Arrays;
import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Kerberos 5 enctype rc4-hmac (23, RFC 4757), for rxkad_krb5 keys of that type (docs/security.md "Kerberos 5"):
 * K1 = HMAC-MD5(key, usage as 4 bytes little-endian); the checksum is HMAC-MD5(K1, confounder | plaintext) with an
 * 8-byte random confounder; the data is RC4-encrypted under HMAC-MD5(K1, checksum); the ciphertext is the checksum
 * followed by the encrypted data. RC4 and HMAC-MD5 are the JDK's. Key bytes never appear in messages.
 */
public final class Rc4Hmac {
    /** The enctype number. */
    static final int ENCTYPE = 23;
    /** Key length, bytes. */
    static final int KEY_LENGTH = 16;

    /** Bytes a ciphertext has beyond its plaintext: the checksum and the confounder. */
    static final int OVERHEAD = 16 + 8;

    private static final int CHECKSUM = 16;
    private static final int CONFOUNDER = 8;

    private Rc4Hmac() {
    }

    /** @return the ciphertext of {@code plain} under {@code key} for {@code usage} (key length already checked) */
    static byte[] encrypt(byte[] key, int usage, byte[] plain, SecureRandom random) throws GeneralSecurityException {
        byte[] k1 = hmac(key, usageBytes(usage));
        byte[] data = new byte[CONFOUNDER + plain.length];
        byte[] confounder = new byte[CONFOUNDER];
        random.nextBytes(confounder);
        System.arraycopy(confounder, 0, data, 0, CONFOUNDER);
        System.arraycopy(plain, 0, data, CONFOUNDER, plain.length);
        byte[] checksum = hmac(k1, data);
        byte[] encrypted = rc4(hmac(k1, checksum), data);
        byte[] out = Arrays.copyOf(checksum, CHECKSUM + encrypted.length);
        System.arraycopy(encrypted, 0, out, CHECKSUM, encrypted.length);
        return out;
    }

    /**
     * @return the plaintext without its confounder
     * @throws GeneralSecurityException if the ciphertext is too short or its checksum does not match
     */
    static byte[] decrypt(byte[] key, int usage, byte[] cipher) throws GeneralSecurityException {
        if (cipher.length < CHECKSUM + CONFOUNDER) {
            throw new GeneralSecurityException("rc4-hmac ciphertext of " + cipher.length + " bytes is too short");
        }
        byte[] k1 = hmac(key, usageBytes(usage));
        byte[] checksum = Arrays.copyOf(cipher, CHECKSUM);
        byte[] data = rc4(hmac(k1, checksum), Arrays.copyOfRange(cipher, CHECKSUM, cipher.length));
        if (!MessageDigest.isEqual(checksum, hmac(k1, data))) {
            throw new GeneralSecurityException("Kerberos integrity check failed");
        }
        return Arrays.copyOfRange(data, CONFOUNDER, data.length);
    }

    /**
     * @return {@link Krb5Crypto#HEAD} bytes of plaintext after the confounder, unchecked (the RC4 stream is keyed
     *     from the checksum, so only the start of the stream is made), or null if the ciphertext is shorter
     */
    static byte[] head(byte[] key, int usage, byte[] cipher) throws GeneralSecurityException {
        if (cipher.length < OVERHEAD + Krb5Crypto.HEAD) {
            return null;
        }
        byte[] k3 = hmac(hmac(key, usageBytes(usage)), Arrays.copyOf(cipher, CHECKSUM));
        byte[] start = rc4(k3, Arrays.copyOfRange(cipher, CHECKSUM, OVERHEAD + Krb5Crypto.HEAD));
        return Arrays.copyOfRange(start, CONFOUNDER, start.length);
    }

    /** RFC 4757's usage numbers: 3 and 9 become 8, 23 becomes 13, as 4 bytes little-endian. */
    private static byte[] usageBytes(int usage) {
        int u = usage == 3 || usage == 9 ? 8 : usage == 23 ? 13 : usage;
        return new byte[] {(byte) u, (byte) (u >>> 8), (byte) (u >>> 16), (byte) (u >>> 24)};
    }

    private static byte[] hmac(byte[] key, byte[] data) throws GeneralSecurityException {
        Mac m = Mac.getInstance("HmacMD5");
        m.init(new SecretKeySpec(key, "HmacMD5"));
        return m.doFinal(data);
    }

    private static byte[] rc4(byte[] key, byte[] data) throws GeneralSecurityException {
        Cipher c = Cipher.getInstance("ARCFOUR");
        c.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key, "ARCFOUR"));
        return c.doFinal(data);
    }
}
