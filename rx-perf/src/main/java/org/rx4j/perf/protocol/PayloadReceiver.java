// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.perf.protocol;

import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.atomic.LongAdder;

/**
 * Reads one direction of a call's payload in chunks of the negotiated read size, optionally checking the
 * {@link PayloadPattern}. The position continues across transfers of the same call.
 */
final class PayloadReceiver {
    private final InputStream in;
    private final byte[] buffer;
    private final int chunk;
    private final boolean verify;
    private final String what;
    private final LongAdder moved;
    private long position;

    /**
     * @param in the reply (client) or request (server) stream
     * @param buffer scratch space of at least {@code chunk} bytes, owned by the calling thread
     * @param chunk read chunk size, 1..{@link RxperfProtocol#MAX_CHUNK} bytes
     * @param verify whether to check the pattern
     * @param what name of the stream for messages, e.g. {@code RECV reply}
     * @param moved counter of payload bytes read
     */
    PayloadReceiver(InputStream in, byte[] buffer, int chunk, boolean verify, String what, LongAdder moved) {
        this.in = in;
        this.buffer = buffer;
        this.chunk = chunk;
        this.verify = verify;
        this.what = what;
        this.moved = moved;
    }

    /**
     * Reads the next {@code bytes} payload bytes.
     *
     * @param bytes how many, ≥ 0
     * @throws RxperfProtocolException if the stream ends first
     * @throws PayloadMismatchException if verifying and a byte breaks the pattern
     * @throws IOException if the stream fails (a {@code PerfCallException} if the call was aborted)
     */
    void receive(long bytes) throws IOException {
        long left = bytes;
        while (left > 0) {
            int size = (int) Math.min(chunk, left);
            int done = 0;
            while (done < size) {
                int n = in.read(buffer, done, size - done);
                if (n < 0) {
                    throw new RxperfProtocolException(what + " ended after " + (bytes - left + done) + " of "
                            + bytes + " payload bytes");
                }
                done += n;
            }
            if (verify) {
                int bad = PayloadPattern.mismatch(buffer, 0, size, position);
                if (bad >= 0) {
                    throw new PayloadMismatchException(what, position + bad, buffer[bad]);
                }
            }
            position += size;
            left -= size;
            moved.add(size);
        }
    }
}
