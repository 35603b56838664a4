// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.afs.files;

import java.io.IOException;
import java.io.InputStream;
import org.rx4j.afs.fs.AfsSplitCall;
import org.rx4j.afs.fs.RxafsFetchData64Result;

/**
 * The bytes of one RXAFS_FetchData64 call as a stream: the fileserver sends the length it will send (64 bits,
 * big-endian), the bytes, then the OUT results (status, callback), which {@link #read} takes at the end of the
 * data and hands to the status cache. A read blocks until it has all the bytes asked for (or all that remain): the
 * fileserver sends the announced length unasked. Closing before the end cancels the call (RX_USER_ABORT). Not
 * thread-safe.
 */
final class FetchStream extends InputStream {
    /** Receives the call's results at the end of the data. */
    interface Done {
        /** @param result the OUT parameters */
        void accept(RxafsFetchData64Result result);
    }

    private final AfsSplitCall<RxafsFetchData64Result> call;
    private final InputStream in;
    private final Done done;
    private final String path;
    private long remaining;
    private boolean ended;

    /**
     * Reads the length header.
     *
     * @param call the started call; owned from here (closed by {@link #close})
     * @param done receives the OUT results
     * @param path the path, for messages
     * @throws IOException the call's failure before any data (e.g. the fileserver's abort), the call is closed
     */
    FetchStream(AfsSplitCall<RxafsFetchData64Result> call, Done done, String path) throws IOException {
        this.call = call;
        this.in = call.call().input();
        this.done = done;
        this.path = path;
        try {
            long n = 0;
            for (int i = 0; i < 8; i++) {
                int b = in.read();
                if (b < 0) {
                    throw new AfsFileException(path, 0, "FetchData64 ended before its length", null);
                }
                n = (n << 8) | b;
            }
            if (n < 0) {
                throw new AfsFileException(path, 0, "FetchData64 announced a negative length " + n, null);
            }
            remaining = n;
        } catch (IOException e) {
            call.close();
            throw e;
        }
    }

    /** @return the bytes the fileserver announced and has not yet delivered */
    long remaining() {
        return remaining;
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        int n = read(one, 0, 1);
        return n < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        if (remaining == 0) {
            finish();
            return -1;
        }
        if (len == 0) {
            return 0;
        }
        // readNBytes: the fileserver sends every announced byte unasked, so waiting for all of them is safe, and
        // the call's stream then wakes this thread once per large piece instead of once per read burst
        int n = in.readNBytes(b, off, (int) Math.min(len, remaining));
        if (n == 0) {
            throw new AfsFileException(path, 0, "FetchData64 ended with " + remaining + " bytes not sent", null);
        }
        remaining -= n;
        return n;
    }

    private void finish() throws IOException {
        if (!ended) {
            ended = true;
            done.accept(call.end());
        }
    }

    @Override
    public void close() {
        ended = true;
        call.close();
    }
}
