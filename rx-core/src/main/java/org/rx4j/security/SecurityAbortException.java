// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.security;

/**
 * A security class refuses to go on with a connection: preparing a packet or building a RESPONSE failed.
 * The engine aborts the connection with {@link #code()} (an ABORT with callNumber 0, rx-wire-facts.md §6).
 *
 * <p>Thrown only on failure, which is rare, so it keeps no stack trace (it is a protocol outcome, not a bug).
 */
public final class SecurityAbortException extends Exception {
    /** Serialization version. */
    private static final long serialVersionUID = 1L;

    /** The abort code, never 0. */
    private final int code;

    /**
     * @param code the abort code to send, non-zero (a security class's own codes are positive, e.g. rxkad's)
     * @param message what failed, for logs
     * @throws IllegalArgumentException if code is 0
     */
    public SecurityAbortException(int code, String message) {
        super(message, null, false, false);
        if (code == 0) {
            throw new IllegalArgumentException("abort code 0 is not an error");
        }
        this.code = code;
    }

    /** @return the abort code for the connection, never 0 */
    public int code() {
        return code;
    }
}
