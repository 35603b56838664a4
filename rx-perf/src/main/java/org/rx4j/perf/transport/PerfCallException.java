package org.rx4j.perf.transport;

import java.io.IOException;
import org.rx4j.rpc.RxCodes;

/**
 * A call ended with an Rx abort code instead of completing: the peer sent an ABORT, or the transport gave up on
 * the call locally (for example RX_CALL_DEAD, −1, when nothing was heard from the peer for the dead time).
 * Thrown by the streams and methods of {@link PerfCall}, and by a server's request stream when the client aborted.
 * Codes are those of rx-wire-facts.md §6 (negative: Rx and rxgen; positive: the application's own).
 */
public class PerfCallException extends IOException {
    private static final long serialVersionUID = 1L;

    private final int code;

    /**
     * Creates the exception with the standard message {@code call aborted with code N (NAME)}.
     *
     * @param code the abort code carried by the ABORT packet or set locally
     */
    public PerfCallException(int code) {
        this(code, "call aborted with code " + code + " (" + RxCodes.name(code) + ")");
    }

    /**
     * Creates the exception with a specific message.
     *
     * @param code the abort code
     * @param message a one-line description for the user
     */
    public PerfCallException(int code, String message) {
        super(message);
        this.code = code;
    }

    /**
     * The abort code of the call.
     *
     * @return the code (rx-wire-facts.md §6), e.g. −1 for RX_CALL_DEAD or rxperf's protocol rejection
     */
    public int code() {
        return code;
    }
}
