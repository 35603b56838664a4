// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc.stream;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.rx4j.engine.call.Call;
import org.rx4j.rpc.client.AsyncClientCall;
import org.rx4j.rpc.server.AsyncServerCall;

/**
 * Writes one whole message held in memory (the request of an {@link AsyncClientCall}, the reply of an
 * {@link AsyncServerCall}) into a call as its send window allows, in chunks of {@link CallStreams#CHUNK} bytes,
 * and ends the call's stream (LAST_PACKET) after the last byte. Loop only; not thread-safe.
 *
 * <p>Ownership: holds the one reference to the message's buffer until every byte was handed to the call or
 * {@link #release()} runs.
 */
public final class MessageWriter {
    /** Bytes not yet given to the call; null once all were (or after release). */
    private ByteBuf rest;

    /** @param message the whole message (not copied: must not change while it is written) */
    public MessageWriter(byte[] message) {
        this.rest = Unpooled.wrappedBuffer(message);
    }

    /**
     * Writes while the call takes more; finishes the call's sending after the last byte. A no-op once done.
     *
     * @param c the call (running, on its event loop)
     * @param now current time, ns
     * @return true when this pump handed the message's end (LAST_PACKET) to the call
     */
    public boolean pump(Call c, long now) {
        while (rest != null && c.isWritable()) {
            if (rest.isReadable()) {
                c.write(now, rest.readRetainedSlice(Math.min(rest.readableBytes(), CallStreams.CHUNK)));
            }
            if (!rest.isReadable()) {
                rest.release();
                rest = null;
                c.finishSending(now);
                return true;
            }
        }
        return false;
    }

    /** Drops the bytes not yet written (the call ended first); idempotent. */
    public void release() {
        if (rest != null) {
            rest.release();
            rest = null;
        }
    }
}
