// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.security.rxkad.handshake;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.rx4j.security.SecurityAbortException;
import org.rx4j.security.rxkad.RxkadCodes;
import org.rx4j.security.rxkad.RxkadLevel;
import org.rx4j.security.rxkad.SessionKey;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * CHALLENGE and RESPONSE payloads: layouts, the RESPONSE checksum against values recorded from Debian's OpenAFS
 * 1.8.9 (rxkad_CksumChallengeResponse through rxkad_peer.c), a client-to-server round trip, and each way a server
 * refuses a RESPONSE with the RXKAD code OpenAFS uses.
 */
class HandshakeTest {
    private static final HexFormat HEX = HexFormat.of();
    private static final SessionKey KEY = new SessionKey(0x0123456789abcdefL);
    private static final int EPOCH = 0x5e6f7081;
    private static final int CID = 0x00012340;

    @Test
    void challengeV2LayoutAndRoundTrip() throws SecurityAbortException {
        ByteBuf buf = Unpooled.buffer();
        RxkadChallenge.v2(0xcafe0001, RxkadLevel.AUTH).encode(buf);
        assertEquals("00000002cafe00010000000100000000", HEX.formatHex(buf.array(), 0, buf.readableBytes()));
        assertEquals(RxkadChallenge.v2(0xcafe0001, RxkadLevel.AUTH), RxkadChallenge.decode(buf, 0, 16));
    }

    @Test
    void oldChallengeIsDecodedAsVersionZero() throws SecurityAbortException {
        ByteBuf buf = Unpooled.wrappedBuffer(HEX.parseHex("0000002a00000002"));
        assertEquals(new RxkadChallenge(0, 42, RxkadLevel.CRYPT), RxkadChallenge.decode(buf, 0, 8));
        ByteBuf out = Unpooled.buffer();
        new RxkadChallenge(0, 42, RxkadLevel.CRYPT).encode(out);
        assertEquals(buf, out);
    }

    @Test
    void badChallengesGetTheirCodes() {
        ByteBuf buf = Unpooled.wrappedBuffer(HEX.parseHex("00000002000000010000000300000000"));
        assertCode(RxkadCodes.RXKADLEVELFAIL, () -> RxkadChallenge.decode(buf, 0, 16));
        assertCode(RxkadCodes.RXKADPACKETSHORT, () -> RxkadChallenge.decode(buf, 0, 12));
        assertCode(RxkadCodes.RXKADPACKETSHORT, () -> RxkadChallenge.decode(buf, 0, 7));
    }

    @Test
    void responseChecksumMatchesOpenAfs() {
        assertEquals(0xb893d540, RxkadResponse.checksum(HEX.parseHex(
                "00000002000000005e6f70810001234000000000000000020000000100000000"
                + "00000003000000000000002a000000020000000700000020")));
        assertEquals(0x64f914f9, RxkadResponse.checksum(HEX.parseHex(
                "0000000200000000800000017ffffffc000000000000000200000009"
                + "0000000a0000000b0000000c8000000000000001000000ff00002ee0")));
    }

    @Test
    void responseRoundTripsAndCarriesTheClientState() throws SecurityAbortException {
        byte[] ticket = ticket(40);
        RxkadResponse sent = RxkadResponse.answer(RxkadChallenge.v2(41, RxkadLevel.AUTH), RxkadLevel.CRYPT,
                EPOCH, CID | 2, 2, new int[] {1, 0, 3, 0}, 7, ticket);
        ByteBuf wire = Unpooled.buffer();
        sent.encode(KEY, wire);
        assertEquals(56 + 40, wire.readableBytes());
        assertEquals(2, wire.getInt(0));
        assertEquals(7, wire.getInt(48));
        assertEquals(40, wire.getInt(52));
        assertFalse(wire.getInt(8) == EPOCH, "the endpoint travels sealed");

        RxkadResponse.Sealed sealed = RxkadResponse.decode(wire, 0, wire.readableBytes());
        assertEquals(7, sealed.kvno());
        assertArrayEquals(ticket, sealed.ticket());
        RxkadResponse got = sealed.open(KEY);
        got.verify(EPOCH, CID | 1, 2, 41, RxkadLevel.AUTH);
        assertEquals(RxkadLevel.CRYPT, got.level());
        assertEquals(3, got.callNumber(2));
        assertEquals(42, got.nonceReply());
        assertEquals(CID, got.cid());
        assertFalse(got.toString().contains(HEX.formatHex(ticket)), "no ticket bytes in toString");
    }

    @Test
    void clientRefusesAChallengeAboveItsLevel() {
        assertCode(RxkadCodes.RXKADLEVELFAIL, () -> RxkadResponse.answer(RxkadChallenge.v2(1, RxkadLevel.CRYPT),
                RxkadLevel.AUTH, EPOCH, CID, 2, new int[4], 7, ticket(32)));
    }

    @Test
    void serverRefusesBadResponsesWithOpenAfsCodes() throws SecurityAbortException {
        ByteBuf wire = encoded(ticket(32), RxkadLevel.AUTH, 100);
        int n = wire.readableBytes();
        assertCode(RxkadCodes.RXKADPACKETSHORT, () -> RxkadResponse.decode(wire, 0, 55));
        assertCode(RxkadCodes.RXKADPACKETSHORT, () -> RxkadResponse.decode(wire, 0, n - 1));
        // Wrong session key or an altered sealed byte: the checksum no longer matches.
        RxkadResponse.Sealed sealed = RxkadResponse.decode(wire, 0, n);
        assertCode(RxkadCodes.RXKADSEALEDINCON, () -> sealed.open(new SessionKey(0x1123456789abcdefL)));
        ByteBuf altered = wire.copy();
        altered.setByte(30, altered.getByte(30) ^ 1);
        assertCode(RxkadCodes.RXKADSEALEDINCON, () -> RxkadResponse.decode(altered, 0, n).open(KEY));
        // An altered clear field (kvno) is covered by the checksum as well.
        ByteBuf kvno = wire.copy();
        kvno.setInt(48, 8);
        assertCode(RxkadCodes.RXKADSEALEDINCON, () -> RxkadResponse.decode(kvno, 0, n).open(KEY));
        RxkadResponse got = sealed.open(KEY);
        assertCode(RxkadCodes.RXKADOUTOFSEQUENCE, () -> got.verify(EPOCH, CID, 2, 101, RxkadLevel.CLEAR));
        assertCode(RxkadCodes.RXKADSEALEDINCON, () -> got.verify(EPOCH + 1, CID, 2, 100, RxkadLevel.CLEAR));
        assertCode(RxkadCodes.RXKADSEALEDINCON, () -> got.verify(EPOCH, CID + 4, 2, 100, RxkadLevel.CLEAR));
        assertCode(RxkadCodes.RXKADLEVELFAIL, () -> got.verify(EPOCH, CID, 2, 100, RxkadLevel.CRYPT));
    }

    @Test
    void ticketLengthIsChecked() throws SecurityAbortException {
        ByteBuf max = encoded(ticket(12_000), RxkadLevel.CLEAR, 1);
        assertEquals(12_000, RxkadResponse.decode(max, 0, max.readableBytes()).ticket().length);
        ByteBuf over = Unpooled.buffer().writeBytes(max, 0, 56).writeZero(12_001);
        over.setInt(52, 12_001);
        assertCode(RxkadCodes.RXKADTICKETLEN, () -> RxkadResponse.decode(over, 0, over.readableBytes()));
        ByteBuf under = Unpooled.buffer().writeBytes(max, 0, 56).writeZero(31);
        under.setInt(52, 31);
        assertCode(RxkadCodes.RXKADTICKETLEN, () -> RxkadResponse.decode(under, 0, under.readableBytes()));
        under.setInt(52, -1);
        assertCode(RxkadCodes.RXKADTICKETLEN, () -> RxkadResponse.decode(under, 0, under.readableBytes()));
        assertThrows(IllegalArgumentException.class, () -> new RxkadResponse(EPOCH, CID, 2, new int[4], 1,
                RxkadLevel.CLEAR, 1, new byte[12_001]));
        assertThrows(IllegalArgumentException.class, () -> new RxkadResponse(EPOCH, CID, 2, new int[] {0, -1, 0, 0},
                1, RxkadLevel.CLEAR, 1, new byte[32]));
    }

    private static ByteBuf encoded(byte[] ticket, RxkadLevel level, int nonce) throws SecurityAbortException {
        ByteBuf wire = Unpooled.buffer();
        RxkadResponse.answer(RxkadChallenge.v2(nonce, RxkadLevel.CLEAR), level, EPOCH, CID, 2, new int[] {5, 6, 7, 8},
                9, ticket).encode(KEY, wire);
        return wire;
    }

    private static byte[] ticket(int n) {
        byte[] t = new byte[n];
        for (int i = 0; i < n; i++) {
            t[i] = (byte) (i * 7 + 1);
        }
        return t;
    }

    private static void assertCode(int code, Executable e) {
        SecurityAbortException x = assertThrows(SecurityAbortException.class, e);
        assertEquals(RxkadCodes.name(code), RxkadCodes.name(x.code()), x.getMessage());
    }
}
