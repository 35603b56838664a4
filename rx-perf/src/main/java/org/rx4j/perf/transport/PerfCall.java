// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.perf.transport;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

/**
 * One client call of an Rx connection, seen as two byte streams (rx-wire-facts.md §6): the request the client
 * sends and the reply the server returns. rxperf does all its I/O through this; the adapter maps it onto the rx4j
 * RPC API (rx_NewCall / rx_Write / rx_Read / rx_EndCall in OpenAFS terms).
 *
 * <p>Order of use, from one thread: write the request to {@link #requestStream()}, call {@link #finishRequest()},
 * read the reply from {@link #replyStream()}, then {@link #close()}. A call is used by one thread at a time.
 *
 * <p>Errors: every method and every stream method throws {@link PerfCallException} (an {@link IOException})
 * carrying the abort code when the call was aborted, by the peer or locally (e.g. RX_CALL_DEAD −1 when the
 * server never answers). Other {@link IOException}s mean the transport itself failed.
 */
public interface PerfCall extends AutoCloseable {
    /**
     * The request stream. Bytes written become the payload of the call's request DATA packets (seq 1, 2, …);
     * writes may block while the transmit window is full. {@code flush()} may push a partial packet but is not
     * required; {@code close()} on the stream is the same as {@link #finishRequest()}.
     *
     * @return the same stream on every call; writing after {@link #finishRequest()} throws {@link IOException}
     */
    OutputStream requestStream();

    /**
     * Ends the request: the last request packet is sent with LAST_PACKET (an empty request still sends one
     * zero-length DATA packet). Idempotent.
     *
     * @throws IOException if the call failed ({@link PerfCallException} with its abort code)
     */
    void finishRequest() throws IOException;

    /**
     * The reply stream. {@code read} blocks until reply bytes arrive, returns fewer bytes than asked at will,
     * and returns −1 once the reply's LAST_PACKET data has been consumed. Reading before
     * {@link #finishRequest()} finishes the request implicitly (as rx_Read does), but rxperf always finishes
     * explicitly.
     *
     * @return the same stream on every call
     */
    InputStream replyStream();

    /**
     * Aborts the call from this side: an ABORT packet with {@code code} goes to the server, blocked stream
     * operations fail with {@link PerfCallException}. Does nothing if the call already ended.
     *
     * @param code the abort code to send (rx-wire-facts.md §6; rxperf uses RX_USER_ABORT −6)
     * @throws IOException if the transport cannot send the ABORT
     */
    void abort(int code) throws IOException;

    /**
     * Ends the call like rx_EndCall: finishes the request if still open, waits until the server's reply is
     * complete (unread reply bytes are discarded), and frees the call's channel for the next call on the
     * connection. Calling it again does nothing.
     *
     * @throws IOException {@link PerfCallException} if the call ended in an abort (also when the abort was already
     *     reported by a stream), or another {@link IOException} if the transport failed
     */
    @Override
    void close() throws IOException;
}
