// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.perf.fake;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import org.rx4j.perf.transport.PerfCall;
import org.rx4j.perf.transport.PerfCallException;

/** A client call of the in-memory transport: a request pipe to a server thread and a reply pipe back. */
final class InMemoryCall implements PerfCall {
    private static final int PIPE_CAPACITY = 64 * 1024;

    final InMemoryPipe request = new InMemoryPipe(PIPE_CAPACITY);
    final InMemoryPipe reply = new InMemoryPipe(PIPE_CAPACITY);
    private final InMemoryConnection connection;
    private final InputStream replyStream;
    private boolean closed;

    InMemoryCall(InMemoryConnection connection) {
        this.connection = connection;
        InputStream in = reply.input();
        this.replyStream = new InputStream() {
            @Override
            public int read() throws IOException {
                request.end();
                return in.read();
            }

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                request.end();  // as rx_Read: reading finishes the request
                return in.read(b, off, len);
            }
        };
    }

    /** Server side: abort the call from the server (the client then sees {@code code}). */
    void serverAbort(int code) {
        request.abort(code);
        reply.abort(code);
    }

    @Override
    public OutputStream requestStream() {
        return request.output();
    }

    @Override
    public void finishRequest() throws IOException {
        throwIfAborted();
        request.end();
    }

    @Override
    public InputStream replyStream() {
        return replyStream;
    }

    @Override
    public void abort(int code) {
        request.abort(code);
        reply.abort(code);
    }

    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        try {
            request.end();
            byte[] sink = new byte[4096];
            while (reply.read(sink, 0, sink.length) >= 0) {
                // discard the unread rest of the reply, as rx_EndCall
            }
        } finally {
            connection.callEnded(this);
        }
    }

    private void throwIfAborted() throws PerfCallException {
        Integer code = reply.abortCode();
        if (code != null) {
            throw new PerfCallException(code);
        }
    }
}
