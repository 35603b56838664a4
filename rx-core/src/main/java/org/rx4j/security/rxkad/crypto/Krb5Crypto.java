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
 * Kerberos 5 encryption for the enctypes rxkad_krb5 keys have (docs/security.md "Kerberos 5"): the ones OpenAFS's
 * {@code -localauth} picks from, aes256-cts-hmac-sha1-96 (18), aes128-cts-hmac-sha1-96 (17), rc4-hmac (23,
 * {@link Rc4Hmac}) and des3-cbc-sha1-kd (16, {@link Des3CbcSha1}). The AES ones are RFC 3962 on RFC 3961's
 * simplified profile: ciphertext is AES-CTS (zero IV) of a 16-byte random confounder and the plaintext under Ke,
 * followed by the first 12 bytes of HMAC-SHA1 over the same bytes under Ki; Ke and Ki are derived from the base key
 * and the key usage (DK with constants usage|0xAA and usage|0x55, n-fold of RFC 3961 section 5.1). AES and the CTS
 * mode are the JDK's. Key bytes never appear in messages.
 */
public final class Krb5Crypto {
    /** aes128-cts-hmac-sha1-96. */
    static final int AES128_CTS_HMAC_SHA1_96 = 17;
    /** aes256-cts-hmac-sha1-96. */
    static final int AES256_CTS_HMAC_SHA1_96 = 18;
    /** The key usage of a ticket's enc-part (RFC 4120 section 7.5.1). */
    public static final int USAGE_TICKET = 2;

    /** Plaintext bytes {@link #head} returns. */
    public static final int HEAD = 16;

    private static final int BLOCK = 16;
    private static final int MAC_LENGTH = 12;

    private Krb5Crypto() {
    }

    /** @return whether {@code enctype} is one this class handles */
    public static boolean supports(int enctype) {
        return keyLength(enctype) > 0;
    }

    /**
     * @param enctype 16, 17, 18 or 23
     * @param key the base key, of the enctype's length (24, 16, 32, 16 bytes)
     * @param usage the key usage
     * @param plain the plaintext
     * @param random the source of the confounder
     * @return the ciphertext
     * @throws IllegalArgumentException if the enctype is not supported or the key length does not match it
     */
    public static byte[] encrypt(int enctype, byte[] key, int usage, byte[] plain, SecureRandom random) {
        checkKey(enctype, key);
        try {
            if (enctype == Rc4Hmac.ENCTYPE) {
                return Rc4Hmac.encrypt(key, usage, plain, random);
            }
            if (enctype == Des3CbcSha1.ENCTYPE) {
                return Des3CbcSha1.encrypt(key, usage, plain, random);
            }
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("enctype " + enctype + "'s cipher failed", e);
        }
        byte[] data = new byte[BLOCK + plain.length];
        byte[] confounder = new byte[BLOCK];
        random.nextBytes(confounder);
        System.arraycopy(confounder, 0, data, 0, BLOCK);
        System.arraycopy(plain, 0, data, BLOCK, plain.length);
        try {
            AesCtsKeys k = AesCtsKeys.of(key, usage);
            byte[] c = k.cts(Cipher.ENCRYPT_MODE, data, 0, data.length);
            byte[] out = Arrays.copyOf(c, c.length + MAC_LENGTH);
            System.arraycopy(k.mac(data), 0, out, c.length, MAC_LENGTH);
            return out;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-CTS or HMAC-SHA1 failed", e);
        }
    }

    /**
     * @param enctype 16, 17, 18 or 23
     * @param key the base key, of the enctype's length
     * @param usage the key usage
     * @param cipher the ciphertext
     * @return the plaintext without its confounder (for enctype 16 with its zero padding)
     * @throws GeneralSecurityException if the ciphertext is too short or its integrity check fails (wrong key,
     *     usage or altered bytes)
     * @throws IllegalArgumentException if the enctype is not supported or the key length does not match it
     */
    public static byte[] decrypt(int enctype, byte[] key, int usage, byte[] cipher) throws GeneralSecurityException {
        checkKey(enctype, key);
        if (enctype == Rc4Hmac.ENCTYPE) {
            return Rc4Hmac.decrypt(key, usage, cipher);
        }
        if (enctype == Des3CbcSha1.ENCTYPE) {
            return Des3CbcSha1.decrypt(key, usage, cipher);
        }
        if (cipher.length < BLOCK + 1 + MAC_LENGTH) {
            throw new GeneralSecurityException("Kerberos ciphertext of " + cipher.length + " bytes is too short");
        }
        int n = cipher.length - MAC_LENGTH;
        AesCtsKeys k = AesCtsKeys.of(key, usage);
        byte[] data = k.cts(Cipher.DECRYPT_MODE, cipher, 0, n);
        byte[] expected = Arrays.copyOf(k.mac(data), MAC_LENGTH);
        if (!MessageDigest.isEqual(expected, Arrays.copyOfRange(cipher, n, cipher.length))) {
            throw new GeneralSecurityException("Kerberos integrity check failed");
        }
        return Arrays.copyOfRange(data, BLOCK, data.length);
    }

    /**
     * The first plaintext bytes after the confounder, decrypted alone and <em>not</em> integrity-checked, so that a
     * caller can refuse a ciphertext whose plaintext cannot be what it expects before paying for the whole
     * decryption and checksum (docs/robustness.md "Rule: a forged RESPONSE is cheap"). Without the key nobody can
     * choose what these bytes decrypt to, so a forgery passes a check on them only by chance. How: AES-CTS leaves
     * every block but the last two plain CBC (RFC 3962 section 5), so with four blocks or more the one after the
     * confounder is AES<sup>-1</sup>(C2) xor C1 (one AES block); des3-cbc-sha1-kd is CBC throughout (two DES3
     * blocks after the 8-byte confounder, RFC 3961 section 6.3); rc4-hmac is a stream keyed from the checksum
     * (RFC 4757 section 5: two short HMAC-MD5s, then 24 bytes of RC4).
     *
     * @param enctype 16, 17, 18 or 23
     * @param key the base key, of the enctype's length
     * @param usage the key usage
     * @param cipher the ciphertext
     * @return {@link #HEAD} bytes of plaintext after the confounder, or null when the ciphertext is too short to
     *     have them apart (the caller then decrypts it whole, which costs no more)
     * @throws GeneralSecurityException if the JDK's cipher fails
     * @throws IllegalArgumentException if the enctype is not supported or the key length does not match it
     */
    public static byte[] head(int enctype, byte[] key, int usage, byte[] cipher) throws GeneralSecurityException {
        checkKey(enctype, key);
        if (enctype == Rc4Hmac.ENCTYPE) {
            return Rc4Hmac.head(key, usage, cipher);
        }
        if (enctype == Des3CbcSha1.ENCTYPE) {
            return Des3CbcSha1.head(key, usage, cipher);
        }
        if (cipher.length - MAC_LENGTH <= 3 * BLOCK) {
            return null;
        }
        byte[] p = AesCtsKeys.of(key, usage).decryptBlock(cipher, BLOCK);
        for (int i = 0; i < BLOCK; i++) {
            p[i] ^= cipher[i];
        }
        return p;
    }

    /**
     * @param enctype 16, 17, 18 or 23
     * @param cipherLength the ciphertext's length, bytes
     * @return the length in bytes of what {@link #decrypt} returns for such a ciphertext (des3: with its padding),
     *     or -1 if it is too short to decrypt
     */
    public static int plainLength(int enctype, int cipherLength) {
        int n = switch (enctype) {
            case Rc4Hmac.ENCTYPE -> cipherLength - Rc4Hmac.OVERHEAD;
            case Des3CbcSha1.ENCTYPE -> cipherLength - Des3CbcSha1.OVERHEAD;
            default -> cipherLength - BLOCK - MAC_LENGTH;
        };
        return n < 0 ? -1 : n;
    }

    /** DK(key, usage | kind) for the AES enctypes: {@link #dr} with AES, as long as the key (random-to-key is 1:1). */
    static byte[] derive(byte[] key, int usage, byte kind) throws GeneralSecurityException {
        return dr("AES", key, BLOCK, usage, kind, key.length);
    }

    /**
     * DR(key, usage | kind) of RFC 3961 section 5.1: the 5-byte constant (usage big-endian, then {@code kind})
     * n-folded to one block, then encrypted with {@code cipher} in ECB repeatedly, each output the next input,
     * until {@code length} bytes are filled.
     */
    static byte[] dr(String cipher, byte[] key, int block, int usage, byte kind, int length)
            throws GeneralSecurityException {
        byte[] constant = {(byte) (usage >>> 24), (byte) (usage >>> 16), (byte) (usage >>> 8), (byte) usage, kind};
        Cipher ecb = Cipher.getInstance(cipher + "/ECB/NoPadding");
        ecb.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key, cipher));
        byte[] out = new byte[length];
        byte[] b = nfold(constant, block);
        for (int filled = 0; filled < length; filled += block) {
            b = ecb.doFinal(b);
            System.arraycopy(b, 0, out, filled, Math.min(block, length - filled));
        }
        return out;
    }

    /**
     * n-fold (RFC 3961 section 5.1): repeats the input, each copy rotated 13 bits right of the one before, to the
     * least common multiple of both lengths, and adds the {@code outBytes}-byte chunks in ones'-complement.
     *
     * @param in the input, at least 1 byte
     * @param outBytes the output length in bytes
     * @return the folded bytes
     */
    static byte[] nfold(byte[] in, int outBytes) {
        int inBytes = in.length;
        int inBits = inBytes * 8;
        int total = inBytes / gcd(inBytes, outBytes) * outBytes;
        int[] sum = new int[outBytes];
        for (int i = 0; i < total; i++) {
            // Byte i of the repeated string: copy number i / inBytes is rotated right by 13 bits per copy.
            int copy = i / inBytes;
            int bitInCopy = (i % inBytes) * 8;
            int srcBit = Math.floorMod(bitInCopy - 13 * copy, inBits);
            int v = 0;
            for (int k = 0; k < 8; k++) {
                int bit = (srcBit + k) % inBits;
                v = (v << 1) | ((in[bit >>> 3] >>> (7 - (bit & 7))) & 1);
            }
            sum[i % outBytes] += v;
        }
        // Ones'-complement addition of the chunks: carry out of the top wraps around to the bottom.
        byte[] out = new byte[outBytes];
        int carry = 0;
        boolean again = true;
        while (again) {
            for (int i = outBytes - 1; i >= 0; i--) {
                int v = sum[i] + carry;
                sum[i] = v & 0xff;
                carry = v >>> 8;
            }
            again = carry != 0;
        }
        for (int i = 0; i < outBytes; i++) {
            out[i] = (byte) sum[i];
        }
        return out;
    }

    private static int gcd(int a, int b) {
        return b == 0 ? a : gcd(b, a % b);
    }

    /** @return HMAC-SHA1 of {@code data} under {@code key} */
    static byte[] mac(byte[] key, byte[] data) throws GeneralSecurityException {
        Mac m = Mac.getInstance("HmacSHA1");
        m.init(new SecretKeySpec(key, "HmacSHA1"));
        return m.doFinal(data);
    }

    /** @return the key length of {@code enctype} in bytes, 0 if it is not supported */
    private static int keyLength(int enctype) {
        return switch (enctype) {
            case AES128_CTS_HMAC_SHA1_96 -> 16;
            case AES256_CTS_HMAC_SHA1_96 -> 32;
            case Rc4Hmac.ENCTYPE -> Rc4Hmac.KEY_LENGTH;
            case Des3CbcSha1.ENCTYPE -> Des3CbcSha1.KEY_LENGTH;
            default -> 0;
        };
    }

    private static void checkKey(int enctype, byte[] key) {
        int want = keyLength(enctype);
        if (want == 0) {
            throw new IllegalArgumentException("Kerberos enctype " + enctype
                    + " is not supported (16, 17, 18 and 23 are)");
        }
        if (key.length != want) {
            throw new IllegalArgumentException("enctype " + enctype + " needs a " + want + "-byte key, got "
                    + key.length);
        }
    }
}
