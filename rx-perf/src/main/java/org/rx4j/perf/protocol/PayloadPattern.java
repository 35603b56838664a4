// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.perf.protocol;

/**
 * rx4j's payload content: byte k of a call's payload in one direction is {@code k mod 251}, k counted from 0 at the
 * first byte after rxperf's own header fields (parameter block, sizes, FILE words) and restarting for every call.
 * 251 is prime, so the pattern never lines up with packet (1412, 1416) or chunk (powers of two) boundaries and a
 * dropped, duplicated or misplaced packet shows. OpenAFS sends zeros; OpenAFS peers ignore content, so sending the
 * pattern always is free and compatible. Source: rx4j (docs/rxperf.md), not OpenAFS.
 */
public final class PayloadPattern {
    /** The pattern's period in bytes. */
    public static final int MODULUS = 251;

    /** SOURCE[i] = i mod 251, long enough to serve any chunk starting at any phase without copying. */
    private static final byte[] SOURCE = new byte[RxperfProtocol.MAX_CHUNK + MODULUS];

    static {
        // One period by hand, then doubling copies: this runs once per process, interpreted, where a loop of
        // half a million steps with a division took milliseconds.
        for (int i = 0; i < MODULUS; i++) {
            SOURCE[i] = (byte) i;
        }
        for (int filled = MODULUS; filled < SOURCE.length; filled *= 2) {
            System.arraycopy(SOURCE, 0, SOURCE, filled, Math.min(filled, SOURCE.length - filled));
        }
    }

    private PayloadPattern() {
    }

    /**
     * The pattern byte at a payload position.
     *
     * @param position payload byte index k ≥ 0
     * @return {@code k mod 251}, 0..250
     */
    public static int expected(long position) {
        return (int) (position % MODULUS);
    }

    /**
     * The shared read-only source array; bytes {@code [phase(position), phase(position) + length)} are the pattern
     * for {@code length ≤ MAX_CHUNK} bytes starting at {@code position}. Callers must not modify it.
     *
     * @return the array
     */
    static byte[] source() {
        return SOURCE;
    }

    /**
     * Index into {@link #source()} where the pattern for a payload position starts.
     *
     * @param position payload byte index ≥ 0
     * @return 0..250
     */
    static int phase(long position) {
        return (int) (position % MODULUS);
    }

    /**
     * Finds the first byte that breaks the pattern.
     *
     * @param buffer received bytes
     * @param offset index of the first byte to check
     * @param length bytes to check, ≥ 0 (any length: compared a source's chunk at a time)
     * @param position payload index of {@code buffer[offset]}
     * @return the index within {@code [0, length)} of the first wrong byte, or −1 if all match
     */
    public static int mismatch(byte[] buffer, int offset, int length, long position) {
        for (int at = 0; at < length; at += RxperfProtocol.MAX_CHUNK) {
            int n = Math.min(RxperfProtocol.MAX_CHUNK, length - at);
            int phase = phase(position + at);
            int bad = java.util.Arrays.mismatch(buffer, offset + at, offset + at + n, SOURCE, phase, phase + n);
            if (bad >= 0) {
                return at + bad;
            }
        }
        return -1;
    }

    /**
     * Writes the pattern of payload positions {@code 0 .. length - 1} into {@code dst} (a whole request's or reply's
     * payload), a source's chunk at a time.
     *
     * @param dst the array
     * @param offset where payload position 0 goes
     * @param length payload bytes, ≥ 0
     */
    static void fill(byte[] dst, int offset, int length) {
        for (int at = 0; at < length; at += RxperfProtocol.MAX_CHUNK) {
            System.arraycopy(SOURCE, phase(at), dst, offset + at, Math.min(RxperfProtocol.MAX_CHUNK, length - at));
        }
    }
}
