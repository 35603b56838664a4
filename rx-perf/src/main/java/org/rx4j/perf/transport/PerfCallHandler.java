// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.perf.transport;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

/**
 * Serves one incoming call (the server half of rx-wire-facts.md §6). Implemented by rxperf's
 * {@code RxperfServerHandler}; invoked by the {@link PerfServerTransport} adapter on a server thread.
 *
 * <p>Contract for the adapter:
 * <ul>
 *   <li>{@code request} yields the request payload in order and returns −1 after the LAST_PACKET data;
 *       it throws {@link PerfCallException} if the client aborted or the call died.</li>
 *   <li>{@code reply} turns written bytes into reply DATA packets (writes may block on the window). Writing the
 *       first reply byte ends request reception, as on an Rx server call.</li>
 *   <li>When {@code handle} returns normally, the adapter sends the rest of the reply with LAST_PACKET (a
 *       zero-length LAST_PACKET DATA if nothing was written) and completes the call.</li>
 *   <li>When it throws {@link RxperfAbortException}, the adapter aborts the call with
 *       {@link RxperfAbortException#code()} (rxperf uses −1).</li>
 *   <li>When it throws {@link PerfCallException}, the call is already dead; nothing more is sent.</li>
 *   <li>Any other exception: the adapter aborts the call with RX_USER_ABORT (−6) and logs it.</li>
 * </ul>
 * The handler does not close either stream.
 */
@FunctionalInterface
public interface PerfCallHandler {
    /**
     * Handles one call.
     *
     * @param request the request bytes the client sent (never null)
     * @param reply where the reply bytes go (never null)
     * @throws IOException if a stream fails ({@link PerfCallException} when the call was aborted)
     * @throws RxperfAbortException to abort the call with a chosen code
     */
    void handle(InputStream request, OutputStream reply) throws IOException, RxperfAbortException;

    /**
     * Request bytes {@link #isSmallCall} needs to see, or 0 when this handler has no small-call path (every call
     * goes to {@link #handle} on a server thread).
     *
     * @return bytes, 0 or ≥ 4
     */
    default int smallCallPrefixBytes() {
        return 0;
    }

    /**
     * Whether a call may be served whole by {@link #handleSmall} without a server thread (on the transport's
     * event loop). Must not block; looks only at the given bytes.
     *
     * @param prefix the request's first bytes, {@code length} of them from index 0 (read-only)
     * @param length {@link #smallCallPrefixBytes()}, or fewer (≥ 4) when the request is shorter
     * @param wholeRequest whether the prefix is the whole request
     * @return true to have the whole request gathered and given to {@link #handleSmall}
     */
    default boolean isSmallCall(byte[] prefix, int length, boolean wholeRequest) {
        return false;
    }

    /**
     * Serves a call {@link #isSmallCall} chose, from its whole request; runs on the transport's event loop and
     * must not block.
     *
     * @param firstWord the request's first 4 bytes, big-endian
     * @param rest the rest of the request
     * @return the whole reply (not changed afterwards; may be shared between calls)
     * @throws RxperfAbortException to abort the call with a chosen code
     */
    default byte[] handleSmall(int firstWord, byte[] rest) throws RxperfAbortException {
        throw new UnsupportedOperationException("no small-call path");
    }
}
