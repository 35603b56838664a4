// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.rx4j.rpc.errors.RxCodes;
import org.rx4j.rpc.errors.RxException;
import org.rx4j.rpc.stream.CallStreams;
import org.rx4j.security.CallerIdentity;

/**
 * One Rx call as an application thread sees it, client or server side: an {@link OutputStream} for
 * this side's data (closing it ends the stream with LAST_PACKET) and an {@link InputStream} for the
 * peer's data (-1 at its end). Stream methods throw {@link RxException} with the abort code when the
 * call fails (rx-wire-facts.md §6, docs/errors.md).
 *
 * <p><b>Split calls</b> (rxgen's FetchData/StoreData shape) are plain stream use: write the arguments, then
 * bulk data, then read; or write the arguments and read bulk data followed by the results. On a client,
 * the first read ends the request (as OpenAFS's rx_Read does), so closing the output first is optional.
 *
 * <p>Not thread-safe: one application thread drives a call's streams; {@link #abort}, {@link #cancel},
 * {@link #setDeadline} and {@link #completion()} may be used from any thread.
 */
public final class RxCall implements AutoCloseable {
    private final CallStreams streams;
    private final boolean server;
    private final InetSocketAddress peer;
    private final RxConnectionId connectionId;
    private final CallerIdentity identity;
    /** The call's non-blocking form, once {@link #async()} made it. */
    private RxAsyncStreams async;

    RxCall(CallStreams streams, boolean server, InetSocketAddress peer, RxConnectionId connectionId,
           CallerIdentity identity) {
        this.streams = streams;
        this.server = server;
        this.peer = peer;
        this.connectionId = connectionId;
        this.identity = identity;
    }

    /** @return the streams behind this call (package use: release after a handler ends) */
    CallStreams streams() {
        return streams;
    }

    /**
     * @return the stream for this side's data; close it to send LAST_PACKET. Writes block while the call's
     *     send buffer is full (flow control) and throw {@link RxException} once the call failed.
     */
    public OutputStream output() {
        return streams.output();
    }

    /**
     * @return the stream of the peer's data: -1 at the end of the peer's stream, {@link RxException} with the
     *     abort code once the call failed (data not yet read is discarded then)
     */
    public InputStream input() {
        return streams.input();
    }

    /**
     * Switches this call to its non-blocking form: data sent and received without a waiting thread, with flow
     * control ({@link RxAsyncStreams}). Once per call, before anything but the opcode (written by
     * {@link RxCallOptions#withOpcode}) went on {@link #output()}; afterwards the blocking streams must not be used
     * and the call needs no {@link #close()} (its buffers are released when it ends). Any thread; does not block.
     *
     * @return the call's async streams
     * @throws IllegalStateException if called twice
     * @throws RxException the call's failure, if it already failed
     * @throws IOException if handing over the bytes already written fails
     */
    public synchronized RxAsyncStreams async() throws IOException {
        if (async != null) {
            throw new IllegalStateException("the call is already in its async form");
        }
        async = RxAsyncStreams.of(this);
        return async;
    }

    /** @return true on the server side */
    public boolean isServer() {
        return server;
    }

    /** @return the peer's UDP address: the caller's on a server, the server's on a client */
    public InetSocketAddress peer() {
        return peer;
    }

    /** @return the identity of the connection carrying the call (epoch, cid, service id, security index) */
    public RxConnectionId connectionId() {
        return connectionId;
    }

    /**
     * Who the caller proved to be, for a server's handler: the principal, instance, cell, level and expiry the
     * connection's security class accepted (rxkad: from the ticket in the RESPONSE). The call's handler runs only
     * after the class accepted the caller, so a service needs no check of its own beyond what it authorises.
     *
     * @return the identity, or empty on an rxnull connection and on the client side
     */
    public Optional<CallerIdentity> identity() {
        return Optional.ofNullable(identity);
    }

    /**
     * The call's cancellation context (docs/embedding.md "Cancellation"): a server handler checks
     * {@link RxCallContext#isCancelled()} or registers {@link RxCallContext#onCancel(Runnable)} to stop work the
     * caller no longer waits for (its cancel, deadline or closed connection, a silent peer, this endpoint's close).
     *
     * @return the context, cancelled once the call ends with an abort code
     */
    public RxCallContext context() {
        return streams.context();
    }

    /** @return the call's channel (0..3), or -1 while it waits for a free channel */
    public int channel() {
        return streams.channel();
    }

    /** @return the call's callNumber (unsigned 32-bit), 0 while it waits for a free channel */
    public int callNumber() {
        return streams.callNumber();
    }

    /**
     * @return a future completed when the call ends: normally on success, exceptionally with an
     *     {@link RxException} carrying the abort code on failure. It completes on the endpoint's event loop:
     *     dependent stages must not block (use the {@code *Async} variants for blocking work).
     */
    public CompletableFuture<Void> completion() {
        return streams.completion();
    }

    /**
     * Aborts the call: sends ABORT with {@code code} to the peer and fails the call locally with that code
     * (reads and writes then throw {@link RxException}, {@link RxException#remote()} false). A no-op once the
     * call has ended. Any thread; returns without waiting.
     *
     * @param code the abort code, non-zero (applications use positive codes; see docs/errors.md)
     * @throws IllegalArgumentException if code is 0
     */
    public void abort(int code) {
        if (code == 0) {
            throw new IllegalArgumentException("abort code 0 is not an error");
        }
        streams.abort(code);
    }

    /**
     * As {@link #abort(int)}, recording why for this side's exception ({@link RxException#reason()}).
     *
     * @param code the abort code, non-zero
     * @param reason the local reason
     */
    void abort(int code, RxException.Reason reason) {
        streams.abort(code, reason);
    }

    /**
     * Makes this call report its failures as {@code describer} rewrites them: its streams' reads and writes,
     * {@link #awaitCompletion()}, {@link #close()} and {@link #completion()} throw (or complete with) what it returns
     * in place of the plain {@link RxException}. rx-gen's split procs use it so that a failure read from
     * {@code call().input()} names the proc ({@code KS_Transfer (opcode 7): call aborted by peer: ...};
     * docs/rxgen.md "Bounds, hostile input and errors"). Set it before the failure happens; a describer that throws
     * or returns null leaves the plain exception.
     *
     * @param describer rewrites a failure (keep its code, remote flag and reason: return a subclass made from it)
     */
    public void describeFailures(java.util.function.UnaryOperator<RxException> describer) {
        streams.describeFailures(java.util.Objects.requireNonNull(describer, "describer"));
    }

    /** Cancels the call: {@link #abort} with RX_USER_ABORT (−6), as rx_AbortCall with a user abort does. */
    public void cancel() {
        abort(RxCodes.RX_USER_ABORT);
    }

    /**
     * Sets the call's hard deadline: if it has not ended by then, the engine aborts it with RX_CALL_TIMEOUT
     * (−3), sends the ABORT to the peer, and blocked reads and writes throw. A call still waiting for a channel
     * just fails. Replaces an earlier deadline; any thread.
     *
     * @param deadlineNanoTime an absolute time on the endpoint's clock ({@link RxEndpoint#now()}), ns, or 0 for none
     */
    public void setDeadline(long deadlineNanoTime) {
        streams.setDeadline(deadlineNanoTime == 0 ? Long.MAX_VALUE : deadlineNanoTime);
    }

    /**
     * Sets the call's hard deadline {@code timeout} from now; see {@link #setDeadline(long)}.
     *
     * @param timeout time left for the call, positive (nanosecond resolution)
     * @throws IllegalArgumentException if timeout is zero or negative
     */
    public void setDeadline(Duration timeout) {
        streams.setDeadline(streams.runtime().deadlineFromNow(timeout));
    }

    /**
     * Waits until the call has ended.
     *
     * @throws RxException with the abort code if it failed
     * @throws java.io.InterruptedIOException if interrupted
     * @throws IOException on other failures
     */
    public void awaitCompletion() throws IOException {
        streams.awaitDone();
    }

    /**
     * Ends the call from the application's side and releases its buffers. If the call is still running and
     * was not aborted: the output is closed (LAST_PACKET), and on a client the rest of the reply is read and
     * discarded and the call awaited (to stop a long reply early, {@link #abort} first). A call that had
     * already ended, or was aborted by this side, closes quietly: its failure is reported by the stream methods,
     * {@link #awaitCompletion()} and {@link #completion()}. Once close returns from an application thread, the
     * completion's callbacks (e.g. a pool's or a channel's bookkeeping) have run. Idempotent.
     *
     * @throws RxException with the abort code if the call fails while close ends it
     * @throws IOException if interrupted while waiting
     */
    @Override
    public void close() throws IOException {
        try {
            if (!streams.isDone() && !streams.abortRequested()) {
                streams.output().close();
                if (!server) {
                    streams.input().transferTo(OutputStream.nullOutputStream());
                    streams.awaitDone(true); // a reply read to its end never fails close()
                }
            }
            streams.awaitEndAnnounced(); // a call that ended meanwhile: its completion's callbacks have run
        } finally {
            streams.release();
        }
    }
}
