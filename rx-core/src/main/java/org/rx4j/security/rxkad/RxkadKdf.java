package org.rx4j.security.rxkad;

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
 * one of the 16 weak or semi-weak DES keys is the key.
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
