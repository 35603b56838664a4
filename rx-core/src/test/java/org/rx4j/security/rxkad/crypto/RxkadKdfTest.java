// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.security.rxkad.crypto;

import java.util.HexFormat;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * rxkad-kdf against keys derived by Debian's OpenAFS 1.8.9 (tkt_DeriveDesKey through rxkad_peer.c, for AES-256 and
 * AES-128 session keys), and its parity and weak-key rules.
 */
class RxkadKdfTest {
    private static final HexFormat HEX = HexFormat.of();

    @Test
    void derivedKeysMatchOpenAfs() {
        assertEquals(0xb60db5e30b266b16L, RxkadKdf.derive(HEX.parseHex(
                "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f")));
        assertEquals(0x07838c58c11c64abL, RxkadKdf.derive(HEX.parseHex("000102030405060708090a0b0c0d0e0f")));
    }

    @Test
    void derivedKeysHaveOddParityAndAreNotWeak() {
        SplittableRandom rnd = new SplittableRandom(11);
        for (int i = 0; i < 500; i++) {
            byte[] k = new byte[16 + rnd.nextInt(17)];
            rnd.nextBytes(k);
            long d = RxkadKdf.derive(k);
            assertEquals(d, RxkadKdf.withOddParity(d));
            for (int s = 0; s < 64; s += 8) {
                assertEquals(1, Integer.bitCount((int) (d >>> s) & 0xff) & 1, "odd parity");
            }
            assertFalse(RxkadKdf.isWeak(d));
        }
    }

    @Test
    void parityAndWeakKeys() {
        assertEquals(0x0101010101010101L, RxkadKdf.withOddParity(0));
        assertEquals(0x0123456789abcdefL, RxkadKdf.withOddParity(0x0123456789abcdefL));
        assertEquals(0x0123456789abcdefL, RxkadKdf.withOddParity(0x0022446688aacceeL));
        assertTrue(RxkadKdf.isWeak(0xfefefefefefefefeL));
        assertTrue(RxkadKdf.isWeak(0x1fe01fe00ef10ef1L));
        assertFalse(RxkadKdf.isWeak(0x0123456789abcdefL));
        assertThrows(IllegalArgumentException.class, () -> RxkadKdf.derive(new byte[6]));
    }
}
