package org.rx4j.rpc;

import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import org.rx4j.engine.RxEngine;
import org.rx4j.transport.RxTransport;

/**
 * What the RPC classes of one endpoint share: the transport (event loop and engine), the worker pool for
 * blocking handlers, the executor that completes async futures, the limits, the call tracker and the
 * closing flag. Thread-safe; its fields are fixed at construction except {@link #closing}.
 */
final class EndpointRuntime {
    final RxTransport transport;
    final ThreadPoolExecutor workers;
    final Executor callbackExecutor;
    final int busyAbortCode;
    final int maxMessageBytes;
    final CallTracker tracker = new CallTracker();
    /** Set once a graceful close starts: new incoming calls are refused, new outgoing calls too. */
    volatile boolean closing;

    EndpointRuntime(RxTransport transport, ThreadPoolExecutor workers, Executor callbackExecutor, int busyAbortCode,
                    int maxMessageBytes) {
        this.transport = transport;
        this.workers = workers;
        this.callbackExecutor = callbackExecutor;
        this.busyAbortCode = busyAbortCode;
        this.maxMessageBytes = maxMessageBytes;
    }

    /**
     * Hands loop work over like {@link RxTransport#execute}, but reports instead of throwing when the loop is
     * already shut down (the endpoint closed; every call has ended by then).
     *
     * @param work the task, run on the event loop
     * @return false when the loop refused the task
     */
    boolean onLoop(java.util.function.Consumer<RxEngine> work) {
        try {
            transport.execute(work);
            return true;
        } catch (RejectedExecutionException e) {
            return false;
        }
    }

    /**
     * Runs {@code r} on the callback executor (completing an application's future), or right here when the
     * executor refuses it.
     *
     * @param r the completion
     */
    void callback(Runnable r) {
        try {
            callbackExecutor.execute(r);
        } catch (RejectedExecutionException e) {
            r.run();
        }
    }
}
