// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.security.rxkad.crypto;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.HexFormat;
import javax.crypto.Cipher;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** n-fold against RFC 3961's vectors, AES-CTS against RFC 3962's, and the encrypt/decrypt pair. */
class Krb5CryptoTest {
    private static final HexFormat HEX = HexFormat.of();

    @ParameterizedTest
    @CsvSource({
        "64, 012345, be072631276b1955",
        "56, password, 78a07b6caf85fa",
        "64, 'Rough Consensus, and Running Code', bb6ed30870b7f0e0",
        "168, password, 59e4a8ca7c0385c3c37b3f6d2000247cb6e6bd5b3e",
        "192, MASSACHVSETTS INSTITVTE OF TECHNOLOGY, db3b0d8f0b061e603282b308a50841229ad798fab9540c1b",
        "168, Q, 518a54a215a8452a518a54a215a8452a518a54a215",
        "168, ba, fb25d531ae8974499f52fd92ea9857c4ba24cf297e",
        "64, kerberos, 6b65726265726f73",
        "128, kerberos, 6b65726265726f737b9b5b2b93132b93",
        "168, kerberos, 8372c236344e5f1550cd0747e15d62ca7a5a3bcea4",
        "256, kerberos, 6b65726265726f737b9b5b2b93132b935c9bdcdad95c9899c4cae4dee6d6cae4",
    })
    void nfoldMatchesRfc3961(int bits, String input, String expected) {
        assertEquals(expected, HEX.formatHex(Krb5Crypto.nfold(input.getBytes(StandardCharsets.US_ASCII), bits / 8)));
    }

    /** RFC 3962 appendix B: AES-128 "chicken teriyaki", zero IV; the JDK's CTS is the Kerberos variant. */
    @ParameterizedTest
    @CsvSource({
        "4920776f756c64206c696b652074686520, c6353568f2bf8cb4d8a580362da7ff7f97",
        "4920776f756c64206c696b65207468652047656e6572616c20476175277320, "
                + "fc00783e0efdb2c1d445d4c8eff7ed2297687268d6ecccc0c07b25e25ecfe5",
        "4920776f756c64206c696b65207468652047656e6572616c2047617527732043, "
                + "39312523a78662d5be7fcbcc98ebf5a897687268d6ecccc0c07b25e25ecfe584",
    })
    void ctsMatchesRfc3962(String plain, String expected) throws GeneralSecurityException {
        Cipher c = Cipher.getInstance("AES/CTS/NoPadding");
        c.init(Cipher.ENCRYPT_MODE, new SecretKeySpec("chicken teriyaki".getBytes(StandardCharsets.US_ASCII), "AES"),
                new IvParameterSpec(new byte[16]));
        assertEquals(expected, HEX.formatHex(c.doFinal(HEX.parseHex(plain))));
    }

    @Test
    void roundTripsAndRefusesAlteredOrWrongKey() throws GeneralSecurityException {
        SecureRandom random = new SecureRandom(new byte[] {1});
        byte[] key = new byte[32];
        random.nextBytes(key);
        byte[] plain = "an EncTicketPart, or anything".getBytes(StandardCharsets.US_ASCII);
        byte[] c = Krb5Crypto.encrypt(18, key, 2, plain, random);
        assertEquals(plain.length + 28, c.length);
        assertArrayEquals(plain, Krb5Crypto.decrypt(18, key, 2, c));
        assertThrows(GeneralSecurityException.class, () -> Krb5Crypto.decrypt(18, key, 3, c), "other usage");
        c[20] ^= 1;
        assertThrows(GeneralSecurityException.class, () -> Krb5Crypto.decrypt(18, key, 2, c), "altered");
        assertThrows(IllegalArgumentException.class, () -> Krb5Crypto.encrypt(17, key, 2, plain, random),
                "32-byte key for aes128");
        assertThrows(IllegalArgumentException.class, () -> Krb5Crypto.encrypt(20, key, 2, plain, random));
        assertThrows(IllegalArgumentException.class, () -> Krb5Crypto.encrypt(23, key, 2, plain, random),
                "32-byte key for rc4-hmac");
    }
}
