// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc.stream;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.io.IOException;
import java.io.OutputStream;
import org.rx4j.rpc.runtime.EndpointRuntime;

/**
 * A call's output stream ({@link CallStreams#output()}): gathers the application's bytes into plain arrays (a small
 * request starts small; full-size {@link CallStreams#CHUNK} arrays are recycled by the endpoint's
 * {@link ChunkRecycler}) and hands each full chunk to the event loop through {@link CallStreams#submitWrite}, which
 * waits while the call's send buffer is full; {@link #close()} ends the request or reply (LAST_PACKET). One writer
 * thread at a time, as any {@code OutputStream}.
 *
 * <p>Buffers: the arrays are the application's until handed over; each is then wrapped in a ByteBuf whose ownership
 * passes to {@link CallStreams#submitWrite} (released on every path there).
 */
final class CallOutputStream extends OutputStream {
    private final CallStreams streams;
    private final EndpointRuntime runtime;
    private final boolean server;
    private byte[] chunk;
    private int used;
    /** Set once a full chunk was written: later chunks start full-size (recycled) instead of growing. */
    private boolean bulk;
    private boolean closed;

    /**
     * @param streams the call's streams: its failure checks and its writes to the loop
     * @param runtime the endpoint's shared parts (the chunk recycler)
     * @param server true for a server call (a client's first chunk tells the meter the opcode)
     */
    CallOutputStream(CallStreams streams, EndpointRuntime runtime, boolean server) {
        this.streams = streams;
        this.runtime = runtime;
        this.server = server;
    }

    /** @return true once {@link #close()} ran (LAST_PACKET queued) */
    boolean isClosed() {
        return closed;
    }

    @Override
    public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        java.util.Objects.checkFromIndexSize(off, len, b.length);
        if (closed) {
            throw new IOException("stream closed");
        }
        streams.checkFailedLocked();
        while (len > 0) {
            if (chunk == null) {
                // a bulk stream takes recycled full-size arrays; a small request starts small
                chunk = bulk || len >= CallStreams.CHUNK / 2 ? runtime.chunks.take()
                        : new byte[Math.min(CallStreams.CHUNK, Math.max(len, CallStreams.FIRST_CHUNK))];
            } else if (used == chunk.length) {
                int size = Math.min(CallStreams.CHUNK, Math.max(2 * used, used + len));
                byte[] grown = size == CallStreams.CHUNK ? runtime.chunks.take() : new byte[size];
                System.arraycopy(chunk, 0, grown, 0, used);
                chunk = grown;
            }
            int n = Math.min(len, chunk.length - used);
            System.arraycopy(b, off, chunk, used, n);
            used += n;
            off += n;
            len -= n;
            if (used == CallStreams.CHUNK) {
                bulk = true;
                submitChunk(false);
            }
        }
    }

    private void submitChunk(boolean finish) throws IOException {
        submitChunk(finish, false);
    }

    private void submitChunk(boolean finish, boolean flush) throws IOException {
        // The engine keeps slices of what it is given until they are acknowledged, so each chunk is an array
        // of its own; a full-size one comes back to the recycler once the engine releases the last slice.
        if (!server && chunk != null) {
            streams.requestBytes(chunk, used); // a client's first chunk starts with the opcode
        }
        ByteBuf b = used == 0 ? Unpooled.EMPTY_BUFFER : runtime.chunks.wrap(chunk, used);
        chunk = null;
        used = 0;
        streams.submitWrite(b, finish, flush);
    }

    /**
     * Sends every byte written so far now, the last ones in a DATA packet shorter than the packet size if
     * need be ({@link Call#flush}). Bulk writers need not flush: full packets go out as they fill.
     */
    @Override
    public void flush() throws IOException {
        if (closed) {
            return;
        }
        streams.checkFailedLocked();
        submitChunk(false, true);
    }

    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        submitChunk(true);
    }
}
