// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * How one client call runs, as a value: its hard deadline, for a streaming or raw call the opcode the library
 * writes as the request's first XDR int (rx-wire-facts.md §6), and whether it inherits the deadline and end of the
 * {@link RxContext} current where it is made (by default it does; {@link #detached()}). Every {@link RxCallTarget}
 * call form takes one; the forms without it use {@link #DEFAULT}. Immutable and thread-safe: make one per kind of
 * call and share it; each {@code with*} and {@link #detached()} method returns a new value. Further per-call choices
 * are added as further withers, so code written against this class keeps compiling (docs/embedding.md "Call forms").
 */
public final class RxCallOptions {
    /** No deadline, no opcode: the call runs until it ends or is cancelled, and its request is written whole. */
    public static final RxCallOptions DEFAULT = new RxCallOptions(null, RxCallInfo.NO_OPCODE, false, null);

    /** The call's whole life from its start, or null for none. */
    private final Duration timeout;
    /** The opcode to write first, or {@link RxCallInfo#NO_OPCODE}. */
    private final long opcodeOrNone;
    /** Set by {@link #detached()}: the call inherits no context. */
    private final boolean detached;
    /**
     * The context captured where the call was made ({@link #bound()}), for the parts of a call that run elsewhere (a
     * pool's or a channel's repeats on the callback executor); null until captured.
     */
    private final RxContext context;

    private RxCallOptions(Duration timeout, long opcodeOrNone, boolean detached, RxContext context) {
        this.timeout = timeout;
        this.opcodeOrNone = opcodeOrNone;
        this.detached = detached;
        this.context = context;
    }

    /**
     * Options with a hard deadline and nothing else; shorthand for {@code DEFAULT.withTimeout(timeout)}.
     *
     * @param timeout the call's whole life from its start, positive
     * @return the options
     * @throws IllegalArgumentException if timeout is zero or negative
     * @throws NullPointerException if timeout is null
     */
    public static RxCallOptions timeout(Duration timeout) {
        return DEFAULT.withTimeout(timeout);
    }

    /**
     * A hard deadline enforced by the engine: past it the call is aborted (ABORT −3 to the server) and fails with
     * RX_CALL_TIMEOUT (−3); for a pool that repeats an idempotent call it covers every attempt and pause. The clock
     * starts when the call starts, not here. A call made while a handler runs gets the earlier of this and the
     * handler's deadline ({@link RxContext}) unless {@link #detached()}.
     *
     * @param timeout the call's whole life from its start, positive
     * @return these options with that deadline
     * @throws IllegalArgumentException if timeout is zero or negative
     * @throws NullPointerException if timeout is null
     */
    public RxCallOptions withTimeout(Duration timeout) {
        Objects.requireNonNull(timeout, "timeout");
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("timeout must be positive: " + timeout);
        }
        return new RxCallOptions(timeout, opcodeOrNone, detached, context);
    }

    /**
     * A call that inherits nothing from the {@link RxContext} current where it is made: not its deadline, not its
     * end. By default a call made while a handler runs takes the earlier of its own deadline and the handler's, and
     * is ended when the handler's call ends (docs/embedding.md "Context that flows"); a detached call runs on, e.g.
     * for work that must outlive the request (a cache fill, a write-behind).
     *
     * @return these options, detached
     */
    public RxCallOptions detached() {
        return new RxCallOptions(timeout, opcodeOrNone, true, null);
    }

    /** @return false for {@link #detached()} options, true (the default) when the call inherits the context */
    public boolean inheritsContext() {
        return !detached;
    }

    /**
     * @return these options with the context current on this thread captured (when not detached and not captured
     *     yet), so that every attempt of the call inherits it on whatever thread it starts
     */
    RxCallOptions bound() {
        if (detached || context != null) {
            return this;
        }
        return new RxCallOptions(timeout, opcodeOrNone, false, RxContext.current());
    }

    /** @return the context the call inherits: ROOT when detached, the captured one, else the current one */
    RxContext context() {
        return detached ? RxContext.ROOT : context != null ? context : RxContext.current();
    }

    /**
     * @param left the time left for an attempt, or null for none
     * @return these options with that deadline (or none), the rest kept
     */
    RxCallOptions withTimeoutOrNone(Duration left) {
        return left == null ? new RxCallOptions(null, opcodeOrNone, detached, context) : withTimeout(left);
    }

    /**
     * The procedure a streaming ({@link RxCallTarget#newCall(RxCallOptions)}) or raw
     * ({@link RxCallTarget#callAsync(byte[], RxCallOptions)}) call goes to: the library writes it as the request's
     * first XDR int, and interceptors ({@link RxCallInfo#opcode()}) and the per-procedure metrics see it from the
     * start. The typed forms take their opcode as an argument and refuse options carrying one.
     *
     * @param opcode the procedure's opcode (any int, as rxgen's)
     * @return these options with that opcode
     */
    public RxCallOptions withOpcode(int opcode) {
        return new RxCallOptions(timeout, opcode, detached, context);
    }

    /** @return the call's whole life from its start, or empty for no deadline */
    public Optional<Duration> timeout() {
        return Optional.ofNullable(timeout);
    }

    /** @return the opcode the library writes first, or empty when the request is written whole by the caller */
    public OptionalInt opcode() {
        return opcodeOrNone == RxCallInfo.NO_OPCODE ? OptionalInt.empty() : OptionalInt.of((int) opcodeOrNone);
    }

    /** @return the opcode, or {@link RxCallInfo#NO_OPCODE} */
    long opcodeOrNone() {
        return opcodeOrNone;
    }

    /** @return the timeout or null (package callers turn it into an engine deadline) */
    Duration timeoutOrNull() {
        return timeout;
    }

    /**
     * @param form the call form's name, for the message
     * @throws IllegalArgumentException if these options carry an opcode (the typed forms take it as an argument)
     */
    void requireNoOpcode(String form) {
        if (opcodeOrNone != RxCallInfo.NO_OPCODE) {
            throw new IllegalArgumentException(form + " takes its opcode as an argument, not in RxCallOptions");
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RxCallOptions other && Objects.equals(timeout, other.timeout)
                && opcodeOrNone == other.opcodeOrNone && detached == other.detached && context == other.context;
    }

    @Override
    public int hashCode() {
        return Objects.hash(timeout, opcodeOrNone, detached, System.identityHashCode(context));
    }

    @Override
    public String toString() {
        return "RxCallOptions[timeout=" + (timeout == null ? "none" : timeout)
                + ", opcode=" + (opcodeOrNone == RxCallInfo.NO_OPCODE ? "none" : Long.toString(opcodeOrNone))
                + (detached ? ", detached" : "") + "]";
    }
}
