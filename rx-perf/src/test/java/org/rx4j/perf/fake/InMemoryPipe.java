// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.perf.fake;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import org.rx4j.perf.transport.PerfCallException;

/**
 * One direction of an in-memory call: a bounded byte buffer between a writer and a reader thread, with an end
 * (LAST_PACKET) and an abort (which both ends then see as {@link PerfCallException}). The bound makes writers
 * block like a full Rx window, so the two sides really run concurrently.
 */
final class InMemoryPipe {
    private final byte[] buffer;
    private int head;
    private int count;
    private boolean ended;
    private int abortCode;
    private boolean aborted;

    /**
     * @param capacity bytes buffered before the writer blocks
     */
    InMemoryPipe(int capacity) {
        this.buffer = new byte[capacity];
    }

    synchronized void write(byte[] source, int offset, int length) throws IOException {
        int done = 0;
        while (done < length) {
            checkAborted();
            if (ended) {
                throw new IOException("write after the end of this direction");
            }
            if (count == buffer.length) {
                waitQuietly();
                continue;
            }
            int tail = (head + count) % buffer.length;
            int n = Math.min(length - done, Math.min(buffer.length - count, buffer.length - tail));
            System.arraycopy(source, offset + done, buffer, tail, n);
            count += n;
            done += n;
            notifyAll();
        }
    }

    synchronized int read(byte[] target, int offset, int length) throws IOException {
        if (length == 0) {
            return 0;
        }
        while (count == 0 && !ended) {
            checkAborted();
            waitQuietly();
        }
        checkAborted();
        if (count == 0) {
            return -1;
        }
        int n = Math.min(length, Math.min(count, buffer.length - head));
        System.arraycopy(buffer, head, target, offset, n);
        head = (head + n) % buffer.length;
        count -= n;
        notifyAll();
        return n;
    }

    synchronized void end() {
        ended = true;
        notifyAll();
    }

    synchronized boolean isEnded() {
        return ended;
    }

    synchronized void abort(int code) {
        if (!aborted) {
            aborted = true;
            abortCode = code;
            notifyAll();
        }
    }

    synchronized Integer abortCode() {
        return aborted ? abortCode : null;
    }

    private void checkAborted() throws PerfCallException {
        if (aborted) {
            throw new PerfCallException(abortCode);
        }
    }

    private void waitQuietly() throws IOException {
        try {
            wait();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new java.io.InterruptedIOException("interrupted");
        }
    }

    InputStream input() {
        return new InputStream() {
            @Override
            public int read() throws IOException {
                byte[] one = new byte[1];
                int n = InMemoryPipe.this.read(one, 0, 1);
                return n < 0 ? -1 : one[0] & 0xff;
            }

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                return InMemoryPipe.this.read(b, off, len);
            }
        };
    }

    OutputStream output() {
        return new OutputStream() {
            @Override
            public void write(int b) throws IOException {
                InMemoryPipe.this.write(new byte[] {(byte) b}, 0, 1);
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                InMemoryPipe.this.write(b, off, len);
            }

            @Override
            public void close() {
                end();
            }
        };
    }
}
