// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc.xdr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.rx4j.rpc.errors.RxException;

/**
 * Seeded random bytes read with random item sequences: the reader either decodes or raises RxException
 * with the side's unmarshal code; nothing else ever escapes (no runtime exception, no OutOfMemoryError).
 */
class XdrFuzzTest {
    private static final int ITERATIONS = 20_000;

    private static final XdrCodec<List<String>> NESTED = XdrCodec.array(4, XdrCodec.string(6));

    private static void readRandomItem(XdrReader r, Random random) throws IOException {
        switch (random.nextInt(14)) {
            case 0 -> r.readInt();
            case 1 -> r.readUnsignedInt();
            case 2 -> r.readLong();
            case 3 -> r.readBoolean();
            case 4 -> r.readEnum();
            case 5 -> r.readString(random.nextInt(40));
            case 6 -> r.readOpaque(random.nextBoolean() ? random.nextInt(40) : XdrReader.MAX_LENGTH);
            case 7 -> r.readOpaqueFixed(random.nextInt(9));
            case 8 -> r.readArray(random.nextBoolean() ? 8 : XdrReader.MAX_LENGTH, XdrCodec.INT32);
            case 9 -> r.readArray(3, NESTED);
            case 10 -> r.readFixedArray(random.nextInt(4), XdrCodec.optional(XdrCodec.INT64));
            case 11 -> r.readOptional(XdrCodec.opaque(12));
            case 12 -> r.readString(XdrReader.MAX_LENGTH);
            default -> r.readArray(5, XdrCodec.BOOL);
        }
    }

    /** Random bytes, biased so lengths and bools are often small enough to get past the first word. */
    private static byte[] randomInput(Random random) {
        byte[] bytes = new byte[random.nextInt(96)];
        random.nextBytes(bytes);
        for (int i = 0; i + 4 <= bytes.length; i += 4) {
            if (random.nextInt(3) == 0) {
                bytes[i] = 0;
                bytes[i + 1] = 0;
                bytes[i + 2] = 0;
                bytes[i + 3] = (byte) random.nextInt(8);
            }
        }
        return bytes;
    }

    @Test
    void randomBytesRaiseOnlyUnmarshalRxException() {
        Random random = new Random(0x4506_5eedL);
        int decodedAll = 0;
        int rejected = 0;
        for (int i = 0; i < ITERATIONS; i++) {
            XdrSide side = random.nextBoolean() ? XdrSide.CLIENT : XdrSide.SERVER;
            byte[] input = randomInput(random);
            ByteArrayInputStream in = new ByteArrayInputStream(input);
            XdrReader r = new XdrReader(in, side);
            int items = 1 + random.nextInt(6);
            try {
                for (int k = 0; k < items; k++) {
                    readRandomItem(r, random);
                }
                decodedAll++;
            } catch (RxException e) {
                assertEquals(side.unmarshalCode(), e.code(), "iteration " + i + ": " + e.getMessage());
                assertFalse(e.remote());
                rejected++;
            } catch (Throwable t) {
                fail("iteration " + i + " input " + XdrTestBytes.hex(input) + " threw " + t, t);
            }
        }
        // Both outcomes must really occur, or the generator is not exercising the decoder.
        assertTrue(decodedAll > ITERATIONS / 20, "decoded " + decodedAll);
        assertTrue(rejected > ITERATIONS / 20, "rejected " + rejected);
    }
}
