package org.rx4j.rpc;

/**
 * What an interceptor runs when a call it admitted ends ({@link RxServerInterceptor}, {@link RxClientInterceptor}):
 * the "after" half of a wrap, for timing, logging or releasing what the "before" half set up. Runs once per call on
 * the endpoint's event loop, or on the thread that gave up the call before it reached the loop: it must not block.
 */
@FunctionalInterface
public interface RxCallEnd {
    /**
     * @param code 0 when the call completed, else its abort code (docs/errors.md)
     * @param durationNs time from the interceptor's call to the call's end, ns on the endpoint's clock
     */
    void ended(int code, long durationNs);
}
