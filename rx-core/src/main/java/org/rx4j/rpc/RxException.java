package org.rx4j.rpc;

import java.io.IOException;

/**
 * A call (or connection) that ended with an Rx abort code instead of a result (see rx-wire-facts.md §6
 * and {@code docs/errors.md}). Negative codes are Rx and rxgen codes ({@link RxCodes}); positive codes
 * belong to the application or a security class.
 *
 * <p>{@link #remote()} tells who decided: {@code true} when the peer sent an ABORT packet with this code,
 * {@code false} when this side raised it (a timeout, a cancel, an XDR marshal/unmarshal failure). A local
 * error on a live call is usually also sent to the peer as an ABORT; that is the caller's job, not this class's.
 *
 * <p>Create instances with {@link #remote(int)} or {@link #local(int, String)}; the constructor is
 * protected so that higher layers may add subclasses (e.g. for timeouts) that keep {@link #code()}.
 */
public class RxException extends IOException {
    /** Serialization version. */
    private static final long serialVersionUID = 1L;

    /** The abort code, never 0. */
    private final int code;
    /** True when the peer sent the ABORT. */
    private final boolean remote;

    /**
     * @param code the abort code, any int except 0 (0 means "no error" on the wire)
     * @param remote true when the peer sent the ABORT
     * @param message the exception message
     * @param cause the underlying failure, or null
     * @throws IllegalArgumentException if code is 0
     */
    protected RxException(int code, boolean remote, String message, Throwable cause) {
        super(message, cause);
        if (code == 0) {
            throw new IllegalArgumentException("abort code 0 is not an error");
        }
        this.code = code;
        this.remote = remote;
    }

    /**
     * The peer aborted the call or connection with {@code code}. Message: {@code call aborted by peer:
     * RXGEN_OPCODE (-455)}.
     *
     * @param code the code from the ABORT packet body, non-zero
     * @return a new exception with {@link #remote()} true
     * @throws IllegalArgumentException if code is 0
     */
    public static RxException remote(int code) {
        return new RxException(code, true, "call aborted by peer: " + describe(code), null);
    }

    /**
     * This side ended the call with {@code code}. Message: {@code call aborted locally:
     * RXGEN_SS_UNMARSHAL (-453): <detail>}.
     *
     * @param code the code this side reports (and may send in an ABORT), non-zero
     * @param detail what went wrong, for humans; may be null
     * @return a new exception with {@link #remote()} false
     * @throws IllegalArgumentException if code is 0
     */
    public static RxException local(int code, String detail) {
        return local(code, detail, null);
    }

    /**
     * As {@link #local(int, String)}, keeping the underlying failure.
     *
     * @param code the abort code, non-zero
     * @param detail what went wrong; may be null
     * @param cause the underlying failure; may be null
     * @return a new exception with {@link #remote()} false
     * @throws IllegalArgumentException if code is 0
     */
    public static RxException local(int code, String detail, Throwable cause) {
        String message = "call aborted locally: " + describe(code);
        if (detail != null && !detail.isEmpty()) {
            message += ": " + detail;
        }
        return new RxException(code, false, message, cause);
    }

    /** @return the Rx abort code (negative: Rx/rxgen, positive: application or security class), never 0 */
    public int code() {
        return code;
    }

    /**
     * @return the OpenAFS constant name of {@link #code()} (e.g. {@code RXGEN_OPCODE}), or
     *     {@code "error <code>"} for application and unknown codes (see {@link RxCodes#name(int)})
     */
    public String codeName() {
        return RxCodes.name(code);
    }

    /** @return true when the peer sent the ABORT, false when this side raised the error */
    public boolean remote() {
        return remote;
    }

    /** "NAME (code)" for catalogued codes, "error code" otherwise (the name already holds the number). */
    private static String describe(int code) {
        String name = RxCodes.name(code);
        return name.startsWith("error ") ? name : name + " (" + code + ")";
    }
}
