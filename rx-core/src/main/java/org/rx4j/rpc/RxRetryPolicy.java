package org.rx4j.rpc;

import java.util.Arrays;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Which typed calls an {@link RxConnectionPool} repeats, and how often (docs/embedding.md "Pools"). Only opcodes the
 * application marks idempotent are ever repeated: the mark lives here, on the Java side, not in the {@code .xg}
 * file, so the file stays readable by OpenAFS's rxgen. A call is repeated only after a failure that says the
 * connection, not the procedure, failed ({@link #retryable(Throwable)}); application errors, deadlines, cancels and a
 * closing endpoint end it at once. Immutable.
 */
public final class RxRetryPolicy {
    private static final RxRetryPolicy NONE = new RxRetryPolicy(Set.of(), 1);

    private final Set<Integer> idempotent;
    private final int maxAttempts;

    private RxRetryPolicy(Set<Integer> idempotent, int maxAttempts) {
        this.idempotent = idempotent;
        this.maxAttempts = maxAttempts;
    }

    /** @return the policy that repeats nothing (the default) */
    public static RxRetryPolicy none() {
        return NONE;
    }

    /**
     * A policy that repeats the given opcodes up to 3 attempts in all.
     *
     * @param opcodes the idempotent procedures' opcodes (e.g. from a generated {@code XxOpcodes} class)
     * @return the policy
     */
    public static RxRetryPolicy idempotent(int... opcodes) {
        return new RxRetryPolicy(Arrays.stream(opcodes).boxed().collect(Collectors.toUnmodifiableSet()), 3);
    }

    /**
     * @param attempts tries in all, the first included, 1..100 (1 repeats nothing)
     * @return a policy with the same opcodes and this bound
     * @throws IllegalArgumentException if attempts is out of range
     */
    public RxRetryPolicy maxAttempts(int attempts) {
        if (attempts < 1 || attempts > 100) {
            throw new IllegalArgumentException("maxAttempts must be 1..100: " + attempts);
        }
        return new RxRetryPolicy(idempotent, attempts);
    }

    /** @return tries in all for an idempotent opcode, the first included */
    public int maxAttempts() {
        return maxAttempts;
    }

    /**
     * @param opcode an opcode
     * @return true if it was marked idempotent
     */
    public boolean isIdempotent(int opcode) {
        return idempotent.contains(opcode);
    }

    /** @return the opcodes marked idempotent */
    public Set<Integer> idempotentOpcodes() {
        return idempotent;
    }

    /**
     * Whether a failed attempt may be repeated (for an idempotent opcode): RX_CALL_DEAD (−1: the peer went silent,
     * or is known unreachable), and the peer's RX_CALL_BUSY (−10) or RX_RESTARTING (−100), which a server sends for a
     * call it did not run (rx-wire-facts.md §7). Never a deadline (−3), a cancel (−6), a closing endpoint, an
     * XDR failure or an application's code.
     *
     * @param failure what the attempt failed with
     * @return true if a new attempt may be made
     */
    public static boolean retryable(Throwable failure) {
        if (!(failure instanceof RxException rx) || rx.reason() == RxException.Reason.ENDPOINT_CLOSING) {
            return false;
        }
        return rx.code() == RxCodes.RX_CALL_DEAD
                || rx.remote() && (rx.code() == RxCodes.RX_CALL_BUSY || rx.code() == RxCodes.RX_RESTARTING);
    }

    @Override
    public String toString() {
        return "RxRetryPolicy[idempotent=" + idempotent + ", maxAttempts=" + maxAttempts + "]";
    }
}
