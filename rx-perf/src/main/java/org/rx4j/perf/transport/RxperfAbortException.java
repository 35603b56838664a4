// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.perf.transport;

/**
 * Thrown by a {@link PerfCallHandler} to end the current server call with an ABORT carrying {@link #code()}
 * (rx-wire-facts.md §6: "handler errors become call aborts"). The rxperf handler uses −1 for every protocol
 * rejection, as OpenAFS's rxperf server does (§10). The adapter turns it into an ABORT packet; it never reaches
 * the client as this class (the client sees a {@link PerfCallException} with the same code).
 */
public class RxperfAbortException extends Exception {
    private static final long serialVersionUID = 1L;

    private final int code;

    /**
     * @param code the abort code to send (rx-wire-facts.md §6)
     */
    public RxperfAbortException(int code) {
        this(code, "aborted with code " + code);
    }

    /**
     * @param code the abort code to send (rx-wire-facts.md §6)
     * @param reason why the call is aborted, for the server's log (never sent on the wire)
     */
    public RxperfAbortException(int code, String reason) {
        super(reason);
        this.code = code;
    }

    /**
     * The code the ABORT packet must carry.
     *
     * @return the abort code
     */
    public int code() {
        return code;
    }
}
