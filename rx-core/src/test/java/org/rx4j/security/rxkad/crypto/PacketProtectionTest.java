// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.security.rxkad.crypto;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.rx4j.security.SecurityAbortException;
import org.rx4j.security.SecurityIndex;
import org.rx4j.security.rxkad.RxkadCodes;
import org.rx4j.security.rxkad.RxkadLevel;
import org.rx4j.security.rxkad.SessionKey;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The per-connection value, the header checksum and the auth/crypt payload sealing against golden vectors recorded
 * from Debian's OpenAFS 1.8.9 libraries (rxkad_DeriveXORInfo and rxkad_PreparePacket on a real client connection,
 * through the harness rxkad_peer.c; RxkadPeerTest repeats the comparison live on random inputs when gcc is there),
 * plus round trips, tampering and the size rules.
 */
class PacketProtectionTest {
    private static final HexFormat HEX = HexFormat.of();
    private static final SessionKey K1 = new SessionKey(0x0123456789abcdefL);
    private static final SessionKey K2 = new SessionKey(0xf0e1d2c3b4a59687L);

    @Test
    void connectionValueMatchesOpenAfs() {
        assertEquals(0x1a5e46fd6bcdb7beL, K1.connectionValue(0x5e6f7081, 0x00012340, SecurityIndex.RXKAD));
        assertEquals(0xe6e47c3ec16e1163L, K2.connectionValue(0x80000001, 0x7fffffff, SecurityIndex.RXKAD));
        // The channel bits are not part of the connection.
        assertEquals(K1.connectionValue(0x5e6f7081, 0x00012340, 2), K1.connectionValue(0x5e6f7081, 0x00012343, 2));
    }

    @Test
    void sealedPacketsMatchOpenAfs() {
        golden(RxkadLevel.CLEAR, K1, 0x5e6f7081, 0x00012341, 1, 1, "48656c6c6f", 0x180e, "48656c6c6f");
        golden(RxkadLevel.AUTH, K1, 0x5e6f7081, 0x00012342, 7, 3, "48656c6c6f", 0x081c, "62f7704e130c21b76f");
        golden(RxkadLevel.AUTH, K1, 0x5e6f7081, 0x00012343, 0xffffffff, 0x40000005,
                "00112233445566778899aabbccddeeff", 0x6555, "cbe4f320d8842426445566778899aabbccddeeff");
        golden(RxkadLevel.CRYPT, K1, 0x5e6f7081, 0x00012340, 2, 1, "48656c6c6f", 0x7095,
                "f99185a54954db2cf594adc3f62e06cb");
        golden(RxkadLevel.CRYPT, K2, 0x80000001, 0x7fffffff, 0x10, 0x20,
                "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f", 0xa775,
                "7004d7420057aa5f8577f3fb18c8ee9cfcfc4663051660c2067cea33ce5aea125943140fb77de9e3");
    }

    @Test
    void sealAndOpenRoundTripAtEveryLevelAndLength() throws SecurityAbortException {
        SplittableRandom rnd = new SplittableRandom(7);
        for (RxkadLevel level : RxkadLevel.values()) {
            for (int len = 0; len <= 40; len++) {
                SessionKey key = new SessionKey(rnd.nextLong());
                byte[] data = new byte[len];
                rnd.nextBytes(data);
                int call = rnd.nextInt();
                int seq = rnd.nextInt();
                ByteBuf buf = Unpooled.buffer(100).writeZero(100);
                buf.setBytes(20 + level.headerSize(), data);
                int wire = PacketProtection.seal(level, new Fcrypt(key.iv()), key.iv(), buf, 20, len, call, seq);
                assertEquals(level.preparedLength(len), wire);
                int user = PacketProtection.open(level, new Fcrypt(key.iv()), key.iv(), buf, 20, wire, call, seq);
                assertEquals(len, user);
                assertArrayEquals(data, Arrays.copyOfRange(buf.array(), 20 + level.headerSize(),
                        20 + level.headerSize() + len), level + " len " + len);
                assertEquals(0, buf.getLong(0) | buf.getLong(8) | buf.getInt(16), "nothing before the payload");
            }
        }
    }

    @Test
    void aPacketMovedToAnotherSeqOrCallIsRefused() {
        for (RxkadLevel level : new RxkadLevel[] {RxkadLevel.AUTH, RxkadLevel.CRYPT}) {
            ByteBuf buf = sealed(level, 5, 9, 12);
            SecurityAbortException e = assertThrows(SecurityAbortException.class, () -> PacketProtection.open(
                    level, new Fcrypt(K1.iv()), K1.iv(), buf.copy(), 0, buf.readableBytes(), 5, 10));
            assertEquals(RxkadCodes.RXKADSEALEDINCON, e.code());
            e = assertThrows(SecurityAbortException.class, () -> PacketProtection.open(
                    level, new Fcrypt(K1.iv()), K1.iv(), buf.copy(), 0, buf.readableBytes(), 6, 9));
            assertEquals(RxkadCodes.RXKADSEALEDINCON, e.code());
        }
    }

    @Test
    void aFlippedCiphertextBitAtCryptIsRefused() {
        ByteBuf buf = sealed(RxkadLevel.CRYPT, 5, 9, 30);
        buf.setByte(3, buf.getByte(3) ^ 0x10);
        SecurityAbortException e = assertThrows(SecurityAbortException.class, () -> PacketProtection.open(
                RxkadLevel.CRYPT, new Fcrypt(K1.iv()), K1.iv(), buf, 0, buf.readableBytes(), 5, 9));
        assertEquals(RxkadCodes.RXKADSEALEDINCON, e.code());
    }

    @Test
    void malformedPayloadsGetTheirCodes() {
        ByteBuf shortAuth = Unpooled.buffer(8).writeZero(7);
        assertEquals(RxkadCodes.RXKADSEALEDINCON, assertThrows(SecurityAbortException.class, () ->
                PacketProtection.open(RxkadLevel.AUTH, new Fcrypt(K1.iv()), K1.iv(), shortAuth, 0, 7, 1, 1)).code());
        ByteBuf ragged = Unpooled.buffer(20).writeZero(20);
        assertEquals(RxkadCodes.RXKADSEALEDINCON, assertThrows(SecurityAbortException.class, () ->
                PacketProtection.open(RxkadLevel.CRYPT, new Fcrypt(K1.iv()), K1.iv(), ragged, 0, 20, 1, 1)).code());
        // A sealed length larger than the payload: seal 4 user bytes, then claim 9 in a 16-byte crypt payload.
        ByteBuf buf = Unpooled.buffer(16).writeZero(16);
        buf.setInt(0, ((3 ^ 4) << 16) | 9);
        FcryptPcbc.encrypt(new Fcrypt(K1.iv()), K1.iv(), buf, 0, 16);
        assertEquals(RxkadCodes.RXKADDATALEN, assertThrows(SecurityAbortException.class, () ->
                PacketProtection.open(RxkadLevel.CRYPT, new Fcrypt(K1.iv()), K1.iv(), buf, 0, 16, 4, 3)).code());
    }

    @Test
    void checksumIsNeverZeroAndDependsOnChannelCallAndSeq() {
        long cv = K1.connectionValue(1, 4, 2);
        int base = PacketChecksum.compute(new Fcrypt(K1.iv()), cv, 10, 4, 1);
        assertNotEquals(base, PacketChecksum.compute(new Fcrypt(K1.iv()), cv, 10, 5, 1));
        assertNotEquals(base, PacketChecksum.compute(new Fcrypt(K1.iv()), cv, 11, 4, 1));
        assertNotEquals(base, PacketChecksum.compute(new Fcrypt(K1.iv()), cv, 10, 4, 2));
        // seq contributes only its low 30 bits: the top two are the channel's place.
        assertEquals(base, PacketChecksum.compute(new Fcrypt(K1.iv()), cv, 10, 4, 1 | 0xc0000000));
        SplittableRandom rnd = new SplittableRandom(3);
        for (int i = 0; i < 100_000; i++) {
            int sum = PacketChecksum.compute(new Fcrypt(K1.iv()), cv, rnd.nextInt(), rnd.nextInt(), rnd.nextInt());
            assertTrue(sum >= 1 && sum <= 0xffff);
        }
    }

    @Test
    void payloadSizesPerLevel() {
        assertEquals(0, RxkadLevel.CLEAR.headerSize());
        assertEquals(4, RxkadLevel.AUTH.headerSize());
        assertEquals(8, RxkadLevel.CRYPT.headerSize());
        assertEquals(8, RxkadLevel.AUTH.preparedLength(0));
        assertEquals(8, RxkadLevel.AUTH.preparedLength(4));
        assertEquals(9, RxkadLevel.AUTH.preparedLength(5));
        assertEquals(8, RxkadLevel.CRYPT.preparedLength(0));
        assertEquals(16, RxkadLevel.CRYPT.preparedLength(1));
        assertEquals(16, RxkadLevel.CRYPT.preparedLength(8));
        assertEquals(24, RxkadLevel.CRYPT.preparedLength(9));
        // A 1444-byte payload (1500-byte MTU less IP, UDP and Rx headers) holds:
        assertEquals(1444, RxkadLevel.CLEAR.maxUserData(1444));
        assertEquals(1440, RxkadLevel.AUTH.maxUserData(1444));
        assertEquals(1432, RxkadLevel.CRYPT.maxUserData(1444));
        for (RxkadLevel level : RxkadLevel.values()) {
            for (int payload = 8; payload < 3000; payload++) {
                int max = level.maxUserData(payload);
                assertTrue(level.preparedLength(max) <= payload, level + " " + payload);
                assertTrue(level.preparedLength(max + 1) > payload, level + " " + payload + " is the most");
            }
        }
        assertThrows(IllegalArgumentException.class, () -> RxkadLevel.CRYPT.preparedLength(65536));
        assertThrows(IllegalArgumentException.class, () -> RxkadLevel.CRYPT.maxUserData(7));
    }

    private static ByteBuf sealed(RxkadLevel level, int call, int seq, int len) {
        ByteBuf buf = Unpooled.buffer(64).writeZero(level.preparedLength(len));
        for (int i = 0; i < len; i++) {
            buf.setByte(level.headerSize() + i, i);
        }
        PacketProtection.seal(level, new Fcrypt(K1.iv()), K1.iv(), buf, 0, len, call, seq);
        return buf;
    }

    private static void golden(RxkadLevel level, SessionKey key, int epoch, int cid, int call, int seq,
                               String data, int checksum, String wire) {
        long cv = key.connectionValue(epoch, cid, SecurityIndex.RXKAD);
        assertEquals(checksum, PacketChecksum.compute(new Fcrypt(key.iv()), cv, call, cid, seq), level + " checksum");
        byte[] user = HEX.parseHex(data);
        ByteBuf buf = Unpooled.buffer(128).writeZero(level.preparedLength(user.length));
        buf.setBytes(level.headerSize(), user);
        int n = PacketProtection.seal(level, new Fcrypt(key.iv()), key.iv(), buf, 0, user.length, call, seq);
        assertEquals(wire, HEX.formatHex(buf.array(), 0, n), level + " payload");
    }
}
