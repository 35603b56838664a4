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
}
