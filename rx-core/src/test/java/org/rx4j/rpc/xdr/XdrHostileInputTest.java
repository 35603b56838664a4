// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc.xdr;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.rx4j.rpc.xdr.XdrTestBytes.encode;
import static org.rx4j.rpc.xdr.XdrTestBytes.hex;
import static org.rx4j.rpc.xdr.XdrTestBytes.reader;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.rx4j.rpc.errors.RxException;
import org.rx4j.wire.AbortCodes;

/** Untrusted bytes: lengths over their maximum, truncation, bad bools. Only RxException, with the side's code. */
class XdrHostileInputTest {
    private static final int MAX = 16;

    /** A length word followed by {@code body} bytes of 0x41. */
    private static byte[] lengthThen(long length, int body) {
        ByteBuffer b = ByteBuffer.allocate(4 + body);
        b.putInt((int) length);
        Arrays.fill(b.array(), 4, 4 + body, (byte) 0x41);
        return b.array();
    }

    private static void assertUnmarshal(XdrSide side, Executable read) {
        RxException e = assertThrows(RxException.class, read);
        assertEquals(side.unmarshalCode(), e.code(), e.getMessage());
        assertFalse(e.remote());
    }

    static Stream<Arguments> hostileLengths() {
        return Stream.of(XdrSide.values()).flatMap(side -> Stream.of(0x7FFF_FFFFL, 0xFFFF_FFFFL, MAX + 1L)
                .map(length -> Arguments.of(side, length)));
    }

    @ParameterizedTest(name = "{0} length {1}")
    @MethodSource("hostileLengths")
    void lengthOverMaximumIsRejectedBeforeReading(XdrSide side, long length) {
        // The body bytes are all there for the "just over" case: the length alone must fail it.
        byte[] bytes = lengthThen(length, 20);
        assertUnmarshal(side, () -> reader(side, bytes).readString(MAX));
        assertUnmarshal(side, () -> reader(side, bytes).readOpaque(MAX));
        assertUnmarshal(side, () -> reader(side, bytes).readArray(MAX, XdrCodec.INT32));
        assertUnmarshal(side, () -> reader(side, bytes).readArray(MAX, XdrCodec.string(MAX)));
    }

    @ParameterizedTest
    @EnumSource(XdrSide.class)
    void codesAreTheRxgenOnes(XdrSide side) {
        int expected = side == XdrSide.CLIENT ? AbortCodes.RXGEN_CC_UNMARSHAL : AbortCodes.RXGEN_SS_UNMARSHAL;
        RxException e = assertThrows(RxException.class, () -> reader(side, lengthThen(0xFFFF_FFFFL, 0)).readOpaque(8));
        assertEquals(expected, e.code());
        assertEquals(side == XdrSide.CLIENT ? -451 : -453, e.code());
    }

    @ParameterizedTest
    @EnumSource(XdrSide.class)
    void hugeDeclaredLengthWithUnboundedMaximumFailsAtEndOfStreamWithoutAllocatingIt(XdrSide side) {
        // With the maximum at its limit, the length passes the check; memory must follow the bytes that
        // arrive (a 2 GiB allocation would fail the -Xmx2g test JVM with OutOfMemoryError).
        int max = XdrReader.MAX_LENGTH;
        byte[] bytes = lengthThen(max, 12);
        assertUnmarshal(side, () -> reader(side, bytes).readOpaque(max));
        assertUnmarshal(side, () -> reader(side, bytes).readString(max));
        assertUnmarshal(side, () -> reader(side, bytes).readArray(max, XdrCodec.INT32));
        assertUnmarshal(side, () -> reader(side, bytes).readArray(max, XdrCodec.BOOL));
        assertUnmarshal(side, () -> reader(side, lengthThen(0xFFFF_FFFFL, 12)).readOpaque(max));
    }

    @ParameterizedTest
    @EnumSource(XdrSide.class)
    void lengthAtMaximumIsAccepted(XdrSide side) throws IOException {
        byte[] bytes = lengthThen(MAX, MAX);
        assertEquals("A".repeat(MAX), reader(side, bytes).readString(MAX));
        assertEquals(MAX, reader(side, bytes).readOpaque(MAX).length);
    }

    @ParameterizedTest
    @EnumSource(XdrSide.class)
    void nonZeroPadBytesAreAccepted(XdrSide side) throws IOException {
        XdrReader r = reader(side, XdrTestBytes.hex("00000003 616263ff 00000001 ee ffffff 00000007"));
        assertEquals("abc", r.readString(3));
        assertArrayEquals(new byte[] {(byte) 0xee}, r.readOpaque(1));
        assertEquals(7, r.readInt());
    }

    @ParameterizedTest
    @EnumSource(XdrSide.class)
    void boolOtherThanZeroOrOneIsRejected(XdrSide side) {
        for (String word : List.of("00000002", "ffffffff", "80000000", "00000100")) {
            assertUnmarshal(side, () -> reader(side, XdrTestBytes.hex(word)).readBoolean());
            assertUnmarshal(side, () -> reader(side, XdrTestBytes.hex(word)).readOptional(XdrCodec.INT32));
            assertUnmarshal(side, () -> reader(side, XdrTestBytes.hex("00000001" + word))
                    .readArray(1, XdrCodec.BOOL));
        }
    }

    /** One item: how to write a sample of it and how to read it back. */
    record Item(String name, XdrTestBytes.Encoding write, Read read) {
        @Override
        public String toString() {
            return name;
        }
    }

    interface Read {
        Object read(XdrReader r) throws IOException;
    }

    static Stream<Item> items() {
        return Stream.of(
                new Item("int", w -> w.writeInt(-7), XdrReader::readInt),
                new Item("uint", w -> w.writeUnsignedInt(7), XdrReader::readUnsignedInt),
                new Item("hyper", w -> w.writeLong(-7), XdrReader::readLong),
                new Item("bool", w -> w.writeBoolean(true), XdrReader::readBoolean),
                new Item("enum", w -> w.writeEnum(2), XdrReader::readEnum),
                new Item("string", w -> w.writeString("hello", 8), r -> r.readString(8)),
                new Item("opaque", w -> w.writeOpaque(new byte[] {1, 2, 3, 4, 5, 6}, 8), r -> r.readOpaque(8)),
                new Item("fixed opaque", w -> w.writeOpaqueFixed(new byte[] {1, 2, 3, 4, 5}), r -> r.readOpaqueFixed(5)),
                new Item("fixed array", w -> w.writeFixedArray(List.of("ab", "c"), 2, XdrCodec.string(2)),
                        r -> r.readFixedArray(2, XdrCodec.string(2))),
                new Item("array", w -> w.writeArray(List.of(1L, 2L, 3L), 3, XdrCodec.INT64),
                        r -> r.readArray(3, XdrCodec.INT64)),
                new Item("optional", w -> w.writeOptional("xyz", XdrCodec.string(3)),
                        r -> r.readOptional(XdrCodec.string(3))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("items")
    void everyTruncationIsAnUnmarshalError(Item item) throws IOException {
        for (XdrSide side : XdrSide.values()) {
            byte[] full = encode(side, item.write());
            item.read().read(reader(side, full)); // the whole encoding reads fine
            for (int cut = 0; cut < full.length; cut++) {
                byte[] prefix = Arrays.copyOf(full, cut);
                RxException e = assertThrows(RxException.class, () -> item.read().read(reader(side, prefix)),
                        item + " cut at " + cut + ": " + hex(prefix));
                assertEquals(side.unmarshalCode(), e.code());
            }
        }
    }
}
