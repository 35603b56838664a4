// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.perf.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The payload source array holds byte k = k mod 251 over its whole length (filled by doubling copies). */
class PayloadPatternTest {
    @Test
    void everySourceByteIsItsIndexModulo251() {
        byte[] source = PayloadPattern.source();
        assertEquals(RxperfProtocol.MAX_CHUNK + PayloadPattern.MODULUS, source.length);
        for (int k = 0; k < source.length; k++) {
            assertEquals((byte) (k % PayloadPattern.MODULUS), source[k], "byte " + k);
        }
    }

    @Test
    void aChunkAtAnyPhaseMatches() {
        byte[] chunk = new byte[1000];
        for (int i = 0; i < chunk.length; i++) {
            chunk[i] = (byte) ((777_777 + i) % PayloadPattern.MODULUS);
        }
        assertEquals(-1, PayloadPattern.mismatch(chunk, 0, chunk.length, 777_777));
    }

    @Test
    void payloadsLongerThanTheSourceAreFilledAndCheckedAcrossItsChunks() {
        int length = 2 * RxperfProtocol.MAX_CHUNK + 1000;
        byte[] payload = new byte[3 + length];
        PayloadPattern.fill(payload, 3, length);
        for (int k = 0; k < length; k++) {
            assertEquals((byte) (k % PayloadPattern.MODULUS), payload[3 + k], "byte " + k);
        }
        assertEquals(-1, PayloadPattern.mismatch(payload, 3, length, 0));
        payload[3 + RxperfProtocol.MAX_CHUNK + 17] ^= 1;
        assertEquals(RxperfProtocol.MAX_CHUNK + 17, PayloadPattern.mismatch(payload, 3, length, 0));
    }
}
