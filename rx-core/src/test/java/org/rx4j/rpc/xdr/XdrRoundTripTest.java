// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc.xdr;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.rx4j.rpc.xdr.XdrTestBytes.encode;
import static org.rx4j.rpc.xdr.XdrTestBytes.hex;
import static org.rx4j.rpc.xdr.XdrTestBytes.reader;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Every type written by one side reads back identically, with the stream consumed exactly. */
class XdrRoundTripTest {

    /** A struct the way an rxgen-like stub would code it: {int id; string name<16>; opaque key<8>; hyper size}. */
    record Entry(int id, String name, byte[] key, long size) {
        static final XdrCodec<Entry> CODEC = XdrCodec.of(Entry::encode, Entry::decode);

        static void encode(XdrWriter w, Entry e) throws IOException {
            w.writeInt(e.id);
            w.writeString(e.name, 16);
            w.writeOpaque(e.key, 8);
            w.writeLong(e.size);
        }

        static Entry decode(XdrReader r) throws IOException {
            return new Entry(r.readInt(), r.readString(16), r.readOpaque(8), r.readLong());
        }
    }

    @ParameterizedTest
    @EnumSource(XdrSide.class)
    void everyTypeRoundTrips(XdrSide side) throws IOException {
        Random random = new Random(4506);
        byte[] fixed = new byte[7];
        random.nextBytes(fixed);
        byte[] opaque = new byte[13];
        random.nextBytes(opaque);
        String latin1 = "caf\u00e9 \u00ff\u0000end";
        List<Entry> entries = List.of(new Entry(1, "one", new byte[] {1}, 1L << 40),
                new Entry(-2, "", new byte[0], -1));

        byte[] bytes = encode(side, w -> {
            w.writeInt(Integer.MIN_VALUE);
            w.writeUnsignedInt(0xFFFF_FFFFL);
            w.writeLong(Long.MIN_VALUE);
            w.writeBoolean(true);
            w.writeBoolean(false);
            w.writeEnum(3);
            w.writeString(latin1, 64);
            w.writeOpaqueFixed(fixed);
            w.writeOpaque(opaque, 13);
            w.writeFixedArray(List.of(7L, 0L), 2, XdrCodec.UINT32);
            w.writeArray(entries, 2, Entry.CODEC);
            w.writeArray(List.of(List.of("a", "bc"), List.of()), 4, XdrCodec.array(3, XdrCodec.string(2)));
            w.writeOptional(null, XdrCodec.INT64);
            w.writeOptional(-9L, XdrCodec.INT64);
            w.writeOptional(true, XdrCodec.BOOL);
            w.writeArray(List.of(new byte[] {9, 9, 9}), 1, XdrCodec.opaque(3));
        });
        assertEquals(0, bytes.length % 4, "XDR output is a multiple of 4 bytes");

        ByteArrayInputStream in = new ByteArrayInputStream(bytes);
        XdrReader r = new XdrReader(in, side);
        assertEquals(Integer.MIN_VALUE, r.readInt());
        assertEquals(0xFFFF_FFFFL, r.readUnsignedInt());
        assertEquals(Long.MIN_VALUE, r.readLong());
        assertTrue(r.readBoolean());
        assertFalse(r.readBoolean());
        assertEquals(3, r.readEnum());
        assertEquals(latin1, r.readString(64));
        assertArrayEquals(fixed, r.readOpaqueFixed(7));
        assertArrayEquals(opaque, r.readOpaque(13));
        assertEquals(List.of(7L, 0L), r.readFixedArray(2, XdrCodec.UINT32));
        List<Entry> back = r.readArray(2, Entry.CODEC);
        assertEquals(2, back.size());
        for (int i = 0; i < 2; i++) {
            assertEquals(entries.get(i).id(), back.get(i).id());
            assertEquals(entries.get(i).name(), back.get(i).name());
            assertArrayEquals(entries.get(i).key(), back.get(i).key());
            assertEquals(entries.get(i).size(), back.get(i).size());
        }
        assertEquals(List.of(List.of("a", "bc"), List.of()), r.readArray(4, XdrCodec.array(3, XdrCodec.string(2))));
        assertNull(r.readOptional(XdrCodec.INT64));
        assertEquals(-9L, r.readOptional(XdrCodec.INT64));
        assertEquals(Boolean.TRUE, r.readOptional(XdrCodec.BOOL));
        List<byte[]> opaques = r.readArray(1, XdrCodec.opaque(3));
        assertArrayEquals(new byte[] {9, 9, 9}, opaques.get(0));
        assertEquals(0, in.available(), "every byte, padding included, was consumed");
    }

    @ParameterizedTest
    @EnumSource(XdrSide.class)
    void intsAndLongsRoundTripOverRandomValues(XdrSide side) throws IOException {
        Random random = new Random(1);
        for (int i = 0; i < 1000; i++) {
            int v = random.nextInt();
            long l = random.nextLong();
            long u = Integer.toUnsignedLong(random.nextInt());
            byte[] bytes = encode(side, w -> {
                w.writeInt(v);
                w.writeLong(l);
                w.writeUnsignedInt(u);
            });
            XdrReader r = reader(side, bytes);
            assertEquals(v, r.readInt());
            assertEquals(l, r.readLong());
            assertEquals(u, r.readUnsignedInt(), hex(bytes));
        }
    }

    @ParameterizedTest
    @EnumSource(XdrSide.class)
    void stringsAndOpaqueOfEveryPadLengthRoundTrip(XdrSide side) throws IOException {
        for (int length = 0; length <= 9; length++) {
            byte[] value = new byte[length];
            StringBuilder text = new StringBuilder();
            for (int i = 0; i < length; i++) {
                value[i] = (byte) (0xF0 + i);
                text.append((char) (0xF0 + i));
            }
            byte[] bytes = encode(side, w -> {
                w.writeOpaque(value, 9);
                w.writeString(text.toString(), 9);
                w.writeOpaqueFixed(value);
            });
            int padded = (length + 3) / 4 * 4;
            assertEquals(3 * padded + 8, bytes.length);
            XdrReader r = reader(side, bytes);
            assertArrayEquals(value, r.readOpaque(9));
            assertEquals(text.toString(), r.readString(9));
            assertArrayEquals(value, r.readOpaqueFixed(length));
        }
    }

    @ParameterizedTest
    @EnumSource(XdrSide.class)
    void largeOpaqueCrossesTheChunkSize(XdrSide side) throws IOException {
        // Over 64 KiB exercises the growing read: 200,003 bytes (pad 1).
        byte[] value = new byte[200_003];
        new Random(7).nextBytes(value);
        byte[] bytes = encode(side, w -> w.writeOpaque(value, XdrReader.MAX_LENGTH));
        assertArrayEquals(value, reader(side, bytes).readOpaque(XdrReader.MAX_LENGTH));
        List<Integer> many = new ArrayList<>();
        for (int i = 0; i < 5000; i++) {
            many.add(i * 31);
        }
        byte[] array = encode(side, w -> w.writeArray(many, 5000, XdrCodec.INT32));
        assertEquals(many, reader(side, array).readArray(5000, XdrCodec.INT32));
    }
}
