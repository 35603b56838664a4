// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.perf.protocol;

import java.io.IOException;
import java.io.OutputStream;
import java.util.concurrent.atomic.LongAdder;

/**
 * Writes one direction of a call's payload: the {@link PayloadPattern}, in chunks of the negotiated write size
 * (one {@code write} per chunk, as OpenAFS's rx_Write loop). The position continues across transfers of the same
 * call (FILE mode sends several).
 */
final class PayloadSender {
    private final OutputStream out;
    private final int chunk;
    private final LongAdder moved;
    private long position;

    /**
     * @param out the request (client) or reply (server) stream
     * @param chunk write chunk size, 1..{@link RxperfProtocol#MAX_CHUNK} bytes
     * @param moved counter of payload bytes written, for progress and totals
     */
    PayloadSender(OutputStream out, int chunk, LongAdder moved) {
        this.out = out;
        this.chunk = chunk;
        this.moved = moved;
    }

    /**
     * Writes the next {@code bytes} payload bytes.
     *
     * @param bytes how many, ≥ 0
     * @throws IOException if the stream fails (a {@code PerfCallException} if the call was aborted)
     */
    void send(long bytes) throws IOException {
        byte[] source = PayloadPattern.source();
        long left = bytes;
        while (left > 0) {
            int size = (int) Math.min(chunk, left);
            out.write(source, PayloadPattern.phase(position), size);
            position += size;
            left -= size;
            moved.add(size);
        }
    }
}
