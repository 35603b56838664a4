// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc.xdr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.rx4j.rpc.xdr.XdrTestBytes.encode;
import static org.rx4j.rpc.xdr.XdrTestBytes.hex;
import static org.rx4j.rpc.xdr.XdrTestBytes.words;

import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Exact bytes against encodings worked out by hand from RFC 4506. */
class XdrEncodingTest {
    private static final XdrSide C = XdrSide.CLIENT;

    @Test
    void integers() throws IOException {
        assertEquals("00000001", hex(encode(C, w -> w.writeInt(1))));
        assertEquals("ffffffff", hex(encode(C, w -> w.writeInt(-1))));
        assertEquals("80000000", hex(encode(C, w -> w.writeInt(Integer.MIN_VALUE))));
        assertEquals("fffffffe", hex(encode(C, w -> w.writeUnsignedInt(0xFFFF_FFFEL))));
        assertEquals("00000000", hex(encode(C, w -> w.writeUnsignedInt(0))));
        assertEquals("0000000700000000", hex(encode(C, w -> w.writeLong(7L << 32))));
        assertEquals("fffffffffffffffe", hex(encode(C, w -> w.writeLong(-2))));
        assertEquals("0123456789abcdef", hex(encode(C, w -> w.writeLong(0x0123_4567_89ab_cdefL))));
        assertEquals("0000000100000000", hex(encode(C, w -> {
            w.writeBoolean(true);
            w.writeBoolean(false);
        })));
        assertEquals("fffffffd", hex(encode(C, w -> w.writeEnum(-3))));
    }

    @Test
    void stringsArePaddedToFour() throws IOException {
        assertEquals(words("00000003 61626300"), hex(encode(C, w -> w.writeString("abc", 10))));
        assertEquals("00000000", hex(encode(C, w -> w.writeString("", 0))));
        assertEquals("0000000461626364", hex(encode(C, w -> w.writeString("abcd", 4))));
        assertEquals(words("0000000561626364 65000000"), hex(encode(C, w -> w.writeString("abcde", 5))));
        // ISO-8859-1: U+00E9 is the single byte e9, not UTF-8 c3a9.
        assertEquals("00000001e9000000", hex(encode(C, w -> w.writeString("\u00e9", 8))));
    }

    @Test
    void opaque() throws IOException {
        assertEquals("01020300", hex(encode(C, w -> w.writeOpaqueFixed(new byte[] {1, 2, 3}))));
        assertEquals("0102030405000000", hex(encode(C, w -> w.writeOpaqueFixed(new byte[] {1, 2, 3, 4, 5}))));
        assertEquals("", hex(encode(C, w -> w.writeOpaqueFixed(new byte[0]))));
        assertEquals(words("00000002 abcd0000"),
                hex(encode(C, w -> w.writeOpaque(new byte[] {(byte) 0xab, (byte) 0xcd}, 2))));
        assertEquals("00000000", hex(encode(C, w -> w.writeOpaque(new byte[0], 0))));
    }

    @Test
    void arraysAndOptionals() throws IOException {
        assertEquals(words("00000002 00000005 fffffffb"),
                hex(encode(C, w -> w.writeArray(List.of(5, -5), 3, XdrCodec.INT32))));
        assertEquals(words("00000005 fffffffb"),
                hex(encode(C, w -> w.writeFixedArray(List.of(5, -5), 2, XdrCodec.INT32))));
        assertEquals("00000000", hex(encode(C, w -> w.writeArray(List.of(), 0, XdrCodec.INT32))));
        // string<> array: count, then each string with its own pad.
        assertEquals(words("00000002 00000001 78000000 00000000"),
                hex(encode(C, w -> w.writeArray(List.of("x", ""), 9, XdrCodec.string(9)))));
        assertEquals("00000000", hex(encode(C, w -> w.writeOptional(null, XdrCodec.INT32))));
        assertEquals(words("00000001 0000002a"), hex(encode(C, w -> w.writeOptional(42, XdrCodec.INT32))));
        // An optional array: bool TRUE, then the count, then the element.
        XdrCodec<List<Integer>> list = XdrCodec.array(5, XdrCodec.INT32);
        assertEquals(words("00000001 00000001 00000007"),
                hex(encode(C, w -> w.writeOptional(Arrays.asList(7), list))));
    }
}
