// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.perf.protocol;

/**
 * Received payload broke the k mod 251 pattern ({@code --verify}, see {@link PayloadPattern}). A server aborts the
 * call with {@link RxperfProtocol#ABORT_PATTERN_MISMATCH}; a client fails the run.
 */
public class PayloadMismatchException extends RxperfProtocolException {
    private static final long serialVersionUID = 1L;

    /**
     * @param what which stream, e.g. {@code RECV reply}
     * @param position payload byte index k in that direction of the call
     * @param actual the byte received
     */
    public PayloadMismatchException(String what, long position, byte actual) {
        super(String.format("payload mismatch in %s at byte %d: got 0x%02x, expected 0x%02x", what, position,
                actual & 0xff, PayloadPattern.expected(position)));
    }
}
