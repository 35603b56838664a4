// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc.xdr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayOutputStream;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.rx4j.rpc.errors.RxException;
import org.rx4j.wire.AbortCodes;

/** Values that cannot be encoded fail with the side's marshal code and leave the stream untouched. */
class XdrMarshalErrorTest {

    private static void assertMarshal(XdrSide side, XdrTestBytes.Encoding encoding) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        RxException e = assertThrows(RxException.class, () -> encoding.write(new XdrWriter(out, side)));
        assertEquals(side.marshalCode(), e.code(), e.getMessage());
        assertEquals(side == XdrSide.CLIENT ? AbortCodes.RXGEN_CC_MARSHAL : AbortCodes.RXGEN_SS_MARSHAL, e.code());
        assertFalse(e.remote());
        assertEquals(0, out.size(), "nothing of the failing item is written");
    }

    @ParameterizedTest
    @EnumSource(XdrSide.class)
    void overMaximum(XdrSide side) {
        assertMarshal(side, w -> w.writeString("abcde", 4));
        assertMarshal(side, w -> w.writeOpaque(new byte[5], 4));
        assertMarshal(side, w -> w.writeArray(List.of(1, 2, 3), 2, XdrCodec.INT32));
        assertMarshal(side, w -> w.writeFixedArray(List.of(1, 2, 3), 2, XdrCodec.INT32));
        assertMarshal(side, w -> w.writeFixedArray(List.of(1), 2, XdrCodec.INT32));
        assertMarshal(side, w -> XdrCodec.string(1).encode(w, "ab"));
        assertMarshal(side, w -> XdrCodec.opaque(1).encode(w, new byte[2]));
    }

    @ParameterizedTest
    @EnumSource(XdrSide.class)
    void valuesXdrCannotCarry(XdrSide side) {
        assertMarshal(side, w -> w.writeUnsignedInt(-1));
        assertMarshal(side, w -> w.writeUnsignedInt(1L << 32));
        assertMarshal(side, w -> w.writeString("\u20ac", 8)); // not a byte: ISO-8859-1 only
        assertMarshal(side, w -> w.writeString("ok\u0100", 8));
        assertMarshal(side, w -> w.writeString(null, 8));
        assertMarshal(side, w -> w.writeOpaque(null, 8));
        assertMarshal(side, w -> w.writeOpaqueFixed(null));
        assertMarshal(side, w -> w.writeArray(null, 8, XdrCodec.INT32));
        assertMarshal(side, w -> w.writeFixedArray(null, 8, XdrCodec.INT32));
        assertMarshal(side, w -> XdrCodec.INT32.encode(w, null));
        assertMarshal(side, w -> XdrCodec.UINT32.encode(w, null));
        assertMarshal(side, w -> XdrCodec.UINT32.encode(w, 1L << 32));
        assertMarshal(side, w -> XdrCodec.INT64.encode(w, null));
        assertMarshal(side, w -> XdrCodec.BOOL.encode(w, null));
    }

    @ParameterizedTest
    @EnumSource(XdrSide.class)
    void badElementFailsWithMarshalCodeAfterTheEarlierOnes(XdrSide side) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        XdrWriter w = new XdrWriter(out, side);
        RxException e = assertThrows(RxException.class,
                () -> w.writeArray(Arrays.asList(1, null), 2, XdrCodec.INT32));
        assertEquals(side.marshalCode(), e.code());
        assertEquals(8, out.size(), "count and first element were written");
    }

    @ParameterizedTest
    @EnumSource(XdrSide.class)
    void negativeOrHugeMaximumIsAProgrammingError(XdrSide side) {
        XdrWriter w = new XdrWriter(new ByteArrayOutputStream(), side);
        XdrReader r = XdrTestBytes.reader(side, new byte[8]);
        assertThrows(IllegalArgumentException.class, () -> w.writeString("", -1));
        assertThrows(IllegalArgumentException.class, () -> w.writeOpaque(new byte[0], Integer.MAX_VALUE));
        assertThrows(IllegalArgumentException.class, () -> r.readOpaque(-1));
        assertThrows(IllegalArgumentException.class, () -> r.readArray(-5, XdrCodec.INT32));
        assertThrows(IllegalArgumentException.class, () -> XdrCodec.string(-1));
    }
}
