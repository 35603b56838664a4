// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.security.rxkad.crypto;

import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * The derived keys Ke and Ki of one AES base key and key usage (RFC 3961 section 5.1, DK with usage|0xAA and
 * usage|0x55) and the JDK cipher objects initialised with them, kept per thread for the last key and usage used
 * there. A server opens every ticket with the same few keys, so deriving them (n-fold, two AES key schedules) and
 * looking the JCE transformations up once per ticket was most of the cost of a small ticket; JCE objects are not
 * thread-safe, hence one set per thread. Package-private: key bytes stay inside the rxkad package.
 */
final class AesCtsKeys {
    private static final int BLOCK = 16;
    private static final byte ENCRYPTION = (byte) 0xaa;
    private static final byte INTEGRITY = 0x55;
    private static final ThreadLocal<AesCtsKeys> LAST = new ThreadLocal<>();

    private final byte[] base;
    private final int usage;
    private final SecretKeySpec ke;
    private final SecretKeySpec ki;
    private Cipher ctsDecrypt;
    private Cipher ctsEncrypt;
    private Cipher ecbDecrypt;
    private Mac mac;

    private AesCtsKeys(byte[] base, int usage) throws GeneralSecurityException {
        this.base = base.clone();
        this.usage = usage;
        this.ke = new SecretKeySpec(Krb5Crypto.derive(base, usage, ENCRYPTION), "AES");
        this.ki = new SecretKeySpec(Krb5Crypto.derive(base, usage, INTEGRITY), "HmacSHA1");
    }

    /**
     * @param base the AES base key, 16 or 32 bytes (not kept by reference)
     * @param usage the key usage
     * @return this thread's keys for {@code base} and {@code usage}, derived now if the thread last used others
     * @throws GeneralSecurityException if the JDK's AES fails
     */
    static AesCtsKeys of(byte[] base, int usage) throws GeneralSecurityException {
        AesCtsKeys k = LAST.get();
        if (k == null || k.usage != usage || !MessageDigest.isEqual(k.base, base)) {
            k = new AesCtsKeys(base, usage);
            LAST.set(k);
        }
        return k;
    }

    /** @return AES-CTS (zero IV) of {@code data} under Ke, encrypted or decrypted by {@code mode} */
    byte[] cts(int mode, byte[] data, int offset, int length) throws GeneralSecurityException {
        boolean decrypt = mode == Cipher.DECRYPT_MODE;
        Cipher c = decrypt ? ctsDecrypt : ctsEncrypt;
        if (c == null) {
            c = ctsCipher(mode);
        }
        // A cipher that failed is not reused: its state after the failure is not specified.
        byte[] out = c.doFinal(data, offset, length);
        if (decrypt) {
            ctsDecrypt = c;
        } else {
            ctsEncrypt = c;
        }
        return out;
    }

    /** @return one 16-byte block at {@code offset} of {@code data} decrypted with AES under Ke alone (ECB) */
    byte[] decryptBlock(byte[] data, int offset) throws GeneralSecurityException {
        if (ecbDecrypt == null) {
            ecbDecrypt = Cipher.getInstance("AES/ECB/NoPadding");
            ecbDecrypt.init(Cipher.DECRYPT_MODE, ke);
        }
        return ecbDecrypt.doFinal(data, offset, BLOCK);
    }

    /** @return HMAC-SHA1 of {@code data} under Ki, 20 bytes */
    byte[] mac(byte[] data) throws GeneralSecurityException {
        if (mac == null) {
            mac = Mac.getInstance("HmacSHA1");
            mac.init(ki);
        }
        return mac.doFinal(data);
    }

    private Cipher ctsCipher(int mode) throws GeneralSecurityException {
        Cipher c = Cipher.getInstance("AES/CTS/NoPadding");
        c.init(mode, ke, new IvParameterSpec(new byte[BLOCK]));
        return c;
    }

    /** @return the usage and key length, never the key */
    @Override
    public String toString() {
        return "AesCtsKeys[usage=" + usage + ", " + base.length + "-byte key]";
    }
}
