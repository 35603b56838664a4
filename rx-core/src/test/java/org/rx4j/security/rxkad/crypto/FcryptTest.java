// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.security.rxkad.crypto;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * fcrypt against the published vectors of OpenAFS's fcrypt test (a 48-byte text PCBC-encrypted under two keys, each
 * with the other as IV), plus the properties the vectors do not pin: ECB round trips, the ignored parity bits and the
 * in-place and segmented forms of PCBC.
 */
class FcryptTest {
    private static final HexFormat HEX = HexFormat.of();
    private static final long KEY1 = 0xf0e1d2c3b4a59687L;
    private static final long KEY2 = 0xfedcba9876543210L;
    /** "The quick brown fox jumps over the lazy dogs." and three NULs: 48 bytes. */
    private static final byte[] TEXT = Arrays.copyOf(
            "The quick brown fox jumps over the lazy dogs.".getBytes(StandardCharsets.US_ASCII), 48);
    private static final byte[] CIPHER1 = HEX.parseHex("00f00e1175e62382eeac98624451e484c359d8aa6460aef7"
            + "d2d9137972a3450323b562d70cf527d1f8913cac442292ef");
    private static final byte[] CIPHER2 = HEX.parseHex("ca90f59dcbd4d23c01887f3e316e629dd8e057a3063a4258"
            + "2a28fe72522fdde01989091c2a8e8c94fcc768e488aade0f");

    @Test
    void pcbcMatchesThePublishedVectors() {
        assertArrayEquals(CIPHER1, pcbc(KEY1, KEY2, TEXT));
        assertArrayEquals(CIPHER2, pcbc(KEY2, KEY1, TEXT));
    }

    @Test
    void pcbcDecryptInvertsThePublishedVectors() {
        byte[] out = CIPHER1.clone();
        FcryptPcbc.decrypt(new Fcrypt(KEY1), KEY2, Unpooled.wrappedBuffer(out), 0, 48);
        assertArrayEquals(TEXT, out);
        ByteBuf buf = Unpooled.wrappedBuffer(CIPHER2.clone());
        FcryptPcbc.decrypt(new Fcrypt(KEY2), KEY1, buf, 0, 48);
        assertArrayEquals(TEXT, buf.array());
    }

    @Test
    void theFirstBlockIsEcbOfPlaintextXorIv() {
        // PCBC's first block is plain ECB of (plaintext ^ IV): pins the ECB direction and byte order.
        long p = Blocks.get(TEXT, 0);
        assertEquals(Blocks.get(CIPHER1, 0), new Fcrypt(KEY1).encrypt(p ^ KEY2));
        assertEquals(p ^ KEY2, new Fcrypt(KEY1).decrypt(Blocks.get(CIPHER1, 0)));
    }

    @Test
    void ecbRoundTripsOnRandomKeysAndBlocks() {
        SplittableRandom rnd = new SplittableRandom(21);
        for (int i = 0; i < 2000; i++) {
            Fcrypt f = new Fcrypt(rnd.nextLong());
            long b = rnd.nextLong();
            long c = f.encrypt(b);
            assertNotEquals(b, c);
            assertEquals(b, f.decrypt(c));
        }
    }

    @Test
    void byteBufFormsMatchTheLongForm() {
        Fcrypt f = new Fcrypt(KEY2);
        ByteBuf buf = Unpooled.buffer(16).writeZero(16);
        buf.setLong(3, 0x0123456789abcdefL);
        f.encrypt(buf, 3);
        assertEquals(f.encrypt(0x0123456789abcdefL), buf.getLong(3));
        f.decrypt(buf, 3);
        assertEquals(0x0123456789abcdefL, buf.getLong(3));
    }

    @Test
    void parityBitsAreIgnored() {
        long b = 0x1122334455667788L;
        assertEquals(new Fcrypt(KEY1).encrypt(b), new Fcrypt(KEY1 ^ 0x0101010101010101L).encrypt(b));
        assertNotEquals(new Fcrypt(KEY1).encrypt(b), new Fcrypt(KEY1 ^ 0x0200000000000000L).encrypt(b));
        assertEquals(new Fcrypt(KEY1).encrypt(b), Fcrypt.of(HEX.parseHex("f0e1d2c3b4a59687")).encrypt(b));
    }

    @Test
    void pcbcInSegmentsEqualsOnePass() {
        Fcrypt f = new Fcrypt(KEY1);
        byte[] whole = TEXT.clone();
        FcryptPcbc.encrypt(f, KEY2, Unpooled.wrappedBuffer(whole), 0, 48);
        ByteBuf buf = Unpooled.wrappedBuffer(TEXT.clone());
        long x = FcryptPcbc.encrypt(f, KEY2, buf, 0, 16);
        FcryptPcbc.encrypt(f, x, buf, 16, 32);
        assertArrayEquals(whole, buf.array());
        assertArrayEquals(CIPHER1, whole);
    }

    @Test
    void partialBlocksAndBadKeysAreRefused() {
        Fcrypt f = new Fcrypt(KEY1);
        assertThrows(IllegalArgumentException.class, () -> FcryptPcbc.encrypt(f, 0, Unpooled.buffer(12), 0, 12));
        assertThrows(IllegalArgumentException.class, () -> FcryptPcbc.decrypt(f, 0, Unpooled.buffer(12), 0, -8));
        assertThrows(IllegalArgumentException.class, () -> Fcrypt.of(new byte[7]));
    }

    private static byte[] pcbc(long key, long iv, byte[] in) {
        byte[] out = in.clone();
        FcryptPcbc.encrypt(new Fcrypt(key), iv, Unpooled.wrappedBuffer(out), 0, in.length);
        return out;
    }
}
