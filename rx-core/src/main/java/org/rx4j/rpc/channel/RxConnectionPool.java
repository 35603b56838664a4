// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc.channel;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;
import org.rx4j.rpc.RxCall;
import org.rx4j.rpc.RxCallOptions;
import org.rx4j.rpc.RxCallTarget;
import org.rx4j.rpc.RxConnection;
import org.rx4j.rpc.RxEndpoint;
import org.rx4j.rpc.errors.RxCodes;
import org.rx4j.rpc.errors.RxException;
import org.rx4j.rpc.pool.AttemptFailures;
import org.rx4j.rpc.pool.CallerEnds;
import org.rx4j.rpc.pool.InheritedContext;
import org.rx4j.rpc.pool.PoolMembers;
import org.rx4j.rpc.pool.RetryPause;
import org.rx4j.rpc.runtime.ApiAccess;
import org.rx4j.rpc.runtime.EndpointRuntime;
import org.rx4j.rpc.runtime.HandlerFailures;
import org.rx4j.rpc.xdr.XdrMarshaller;
import org.rx4j.rpc.xdr.XdrUnmarshaller;
import org.rx4j.security.RxNullSecurityClass;
import org.rx4j.security.SecurityClass;

/**
 * Client connections to one (server, service id, security class) that grow with the calls (docs/embedding.md
 * "Pools"): one Rx connection runs 4 calls at once (its channels, rx-wire-facts.md §2), so a call that finds every
 * open connection with 4 calls running opens another, up to {@link RxPoolConfig#maxConnections()} (default 8); past
 * that bound a call waits for a channel on the least busy connection. A connection without calls for
 * {@link RxPoolConfig#idleTimeoutNs()} (on the endpoint's clock, or the config's ticker) is closed, at the next call
 * or by a sweep on the endpoint's event loop every half idle time. Typed calls of opcodes the config's
 * {@link RxRetryPolicy} marks idempotent are repeated after a connection-level failure, after the policy's backoff
 * pause ({@link RetryPause}); nothing else is.
 *
 * <p>The shape of gRPC-java's channel or OkHttp's connection pool: make one per server and service at start-up, share
 * it between threads, hand it to generated clients ({@code new XxClient(pool)}) or {@code UbikClient}, close it at
 * the end. It runs every call form of {@link RxConnection} ({@link RxCallTarget}). Thread-safe.
 */
public final class RxConnectionPool implements RxCallTarget {
    private final EndpointRuntime rt;
    private final InetSocketAddress server;
    private final int serviceId;
    private final SecurityClass securityClass;
    private final RxPoolConfig config;
    private final PoolMembers members;
    private final LongAdder retries = new LongAdder();
    private final ScheduledFuture<?> sweep;
    /** The backoff's jitter and waiting; a test replaces it to record the pauses instead of waiting. */
    private volatile RetryPause pause;

    /**
     * What a pool holds and has done, for monitoring and tests.
     *
     * @param connections connections open now
     * @param busyCalls calls running or waiting for a channel now
     * @param peakConnections most connections open at once so far (never above the bound)
     * @param opened connections opened so far
     * @param closedIdle connections closed for idleness so far
     * @param retries attempts repeated so far (by the retry policy)
     * @param closedRefused connections taken out of the pool so far because the server refused them
     *     ({@link RxException.Reason#REFUSED})
     */
    public record Stats(int connections, int busyCalls, int peakConnections, long opened, long closedIdle,
                        long retries, long closedRefused) {
    }

    private RxConnectionPool(RxEndpoint endpoint, InetSocketAddress server, int serviceId, SecurityClass sc,
                             RxPoolConfig config) {
        this.rt = ApiAccess.api().runtime(endpoint);
        this.server = server;
        this.serviceId = serviceId;
        this.securityClass = sc;
        this.config = config;
        LongSupplier clock = config.ticker() != null ? config.ticker() : rt::now;
        this.members = new PoolMembers(config.maxConnections(), config.idleTimeoutNs(), clock,
                () -> endpoint.connect(server, serviceId, sc), () -> !rt.transport.loop().inEventLoop());
        // Opens the first connection now (no packet is sent): bad arguments and a closing endpoint fail here.
        try {
            members.release(members.acquire());
        } catch (RxException e) { // a new pool is neither closed nor waiting for anything
            throw new IllegalStateException(e.getMessage(), e);
        }
        long period = Math.max(config.idleTimeoutNs() / 2, TimeUnit.MILLISECONDS.toNanos(10));
        this.sweep = rt.transport.loop().scheduleAtFixedRate(members::evictIdle, period, period, TimeUnit.NANOSECONDS);
        this.pause = RetryPause.on(rt.transport.loop());
    }

    /** Tests: records the pauses instead of waiting. */
    void pause(RetryPause replacement) {
        this.pause = replacement;
    }

    /**
     * Opens a pool to an rxnull service with the default settings ({@link RxPoolConfig#defaults()}).
     *
     * @param endpoint the local endpoint (the pool never closes it)
     * @param server the server's address (resolved)
     * @param serviceId 1..65535
     * @return the pool, with one connection open (no packet sent yet)
     * @throws IllegalArgumentException if the address is unresolved or serviceId is out of range
     * @throws IllegalStateException if the endpoint is closing
     */
    public static RxConnectionPool open(RxEndpoint endpoint, InetSocketAddress server, int serviceId) {
        return open(endpoint, server, serviceId, RxNullSecurityClass.INSTANCE, RxPoolConfig.defaults());
    }

    /**
     * Opens a pool; every connection it opens uses {@code securityClass} (rxkad: each authenticates on its own first
     * call).
     *
     * @param endpoint the local endpoint (the pool never closes it)
     * @param server the server's address (resolved)
     * @param serviceId 1..65535
     * @param securityClass the class every connection uses
     * @param config bound, idle time, retry policy, clock
     * @return the pool, with one connection open (no packet sent yet)
     * @throws IllegalArgumentException if the address is unresolved or serviceId is out of range
     * @throws IllegalStateException if the endpoint is closing
     */
    public static RxConnectionPool open(RxEndpoint endpoint, InetSocketAddress server, int serviceId,
                                        SecurityClass securityClass, RxPoolConfig config) {
        return new RxConnectionPool(Objects.requireNonNull(endpoint, "endpoint"), server, serviceId,
                Objects.requireNonNull(securityClass, "securityClass"), Objects.requireNonNull(config, "config"));
    }

    @Override
    public InetSocketAddress server() {
        return server;
    }

    @Override
    public int serviceId() {
        return serviceId;
    }

    @Override
    public SecurityClass securityClass() {
        return securityClass;
    }

    /** @return the settings this pool runs with */
    public RxPoolConfig config() {
        return config;
    }

    /** @return a snapshot of the pool's counts */
    public Stats stats() {
        return new Stats(members.size(), members.busyCalls(), members.peak(), members.opened(), members.closedIdle(),
                retries.sum(), members.refused());
    }

    /**
     * Closes the connections idle for at least the idle time now (the event loop's sweep does the same every half
     * idle time; a test with an injected ticker calls it to age connections without waiting).
     *
     * @return how many connections were closed
     */
    public int evictIdle() {
        return members.evictIdle();
    }

    /**
     * Starts a streaming call on a connection with a free channel (opened if needed); see
     * {@link RxConnection#newCall(RxCallOptions)}. Never repeated: the pool does not know what the stream carries.
     *
     * @param options deadline and opcode
     * @return the call (close it: its connection counts it busy until it ends)
     * @throws RxException RX_INVALID_OPERATION (−2) if the pool is closed or the endpoint is closing
     */
    @Override
    public RxCall newCall(RxCallOptions options) throws RxException {
        PoolMembers.Member m = acquire();
        RxCall call;
        try {
            call = m.connection.newCall(options);
        } catch (RxException | RuntimeException e) {
            members.release(m);
            throw e;
        }
        call.completion().whenComplete((v, t) -> members.release(m, t));
        return call;
    }

    /**
     * One whole-message call, blocking, on a connection with a free channel; never repeated. The connection is given
     * back before this returns or throws, so a refusal ({@link RxException.Reason#REFUSED}) has taken it out of the
     * pool by the time the caller sees it ({@link #stats()}, the next call opens a new one).
     *
     * @param request the request bytes
     * @return the whole reply
     * @throws RxException the call's abort code; RX_INVALID_OPERATION (−2) if the pool is closed or the endpoint is
     *     closing
     * @throws IOException if interrupted while waiting for the reply
     */
    @Override
    public byte[] call(byte[] request) throws IOException {
        PoolMembers.Member m = acquire();
        RxException failed = null;
        try {
            return m.connection.call(request);
        } catch (RxException e) {
            failed = e;
            throw e;
        } finally {
            members.release(m, failed);
        }
    }

    /**
     * As {@link RxConnection#callAsync(byte[], RxCallOptions)} on a connection with a free channel; never repeated.
     *
     * @param request the whole request (not copied: must not change until the future completes)
     * @param options deadline and opcode
     * @return the reply; exceptionally an {@link RxException} (−2 if the pool is closed)
     */
    @Override
    public CompletableFuture<byte[]> callAsync(byte[] request, RxCallOptions options) {
        PoolMembers.Member m;
        try {
            m = acquire();
        } catch (RxException e) {
            // On the callback executor, as a closed connection's own refusal: dependent stages never run here.
            CompletableFuture<byte[]> refused = new CompletableFuture<>();
            rt.callback(() -> refused.completeExceptionally(e));
            return refused;
        }
        CompletableFuture<byte[]> f = m.connection.callAsync(request, options);
        f.whenComplete((v, t) -> members.release(m, t));
        return f;
    }

    /**
     * One rxgen-style call, blocking, repeated on a connection-level failure when the retry policy marks
     * {@code opcode} idempotent ({@link RxRetryPolicy#retryable(Throwable)}); the calling thread waits out the
     * policy's backoff pause before each repeat (holding no connection). See
     * {@link RxConnection#call(int, XdrMarshaller, XdrUnmarshaller, RxCallOptions)}. A timeout in the options is a
     * hard deadline over all attempts and pauses: when it would pass during the pause before a repeat, the call
     * fails at once with the last failure.
     *
     * @param opcode the operation
     * @param arguments writes the arguments (once per attempt)
     * @param results reads the results
     * @param options the deadline; no opcode
     * @param <T> the result type
     * @return what {@code results} returned
     * @throws RxException with the last attempt's abort code (−3 when the deadline passed); RX_USER_ABORT (−6) when
     *     the thread is interrupted during a pause (its cause: the failure the call would have ended with; the
     *     interrupt status is kept)
     * @throws IOException if interrupted during an attempt
     * @throws IllegalArgumentException if the options carry an opcode
     */
    @Override
    public <T> T call(int opcode, XdrMarshaller arguments, XdrUnmarshaller<T> results, RxCallOptions options)
            throws IOException {
        ApiAccess.api().requireNoOpcode(options, "call(opcode, arguments, results, options)");
        RxCallOptions bound = ApiAccess.api().bound(options);
        return typed(opcode, arguments, results, bound, InheritedContext.deadline(rt, bound));
    }

    /**
     * @return options for one attempt: the time left before {@code deadline}, or none; the context the call
     *     inherits kept
     */
    private RxCallOptions attemptOptions(RxCallOptions options, long deadline) {
        return ApiAccess.api().withTimeoutOrNone(options, deadline == Long.MAX_VALUE ? null : left(deadline));
    }

    private <T> T typed(int opcode, XdrMarshaller arguments, XdrUnmarshaller<T> results, RxCallOptions options,
                        long deadline) throws IOException {
        int attempts = attemptsFor(opcode);
        List<Throwable> earlier = null;
        for (int attempt = 1; ; attempt++) {
            PoolMembers.Member m = acquire();
            RxException failed = null;
            try {
                return m.connection.call(opcode, arguments, results, attemptOptions(options, deadline));
            } catch (RxException e) {
                failed = e;
            } finally {
                members.release(m, failed);
            }
            long ns = pauseBeforeRepeat(failed, attempt, attempts, deadline);
            if (ns < 0) {
                throw AttemptFailures.withEarlier(failed, earlier);
            }
            pause.sleep(ns, attempt + 1, failed, earlier);
            if (earlier == null) {
                earlier = new ArrayList<>();
            }
            earlier.add(failed);
            retries.increment();
        }
    }

    /**
     * One rxgen-style call without blocking, repeated as {@link #call(int, XdrMarshaller, XdrUnmarshaller,
     * RxCallOptions)} is, its deadline over all attempts; no thread waits out the backoff pause: the repeat is timed
     * on the endpoint's event loop and starts on the callback executor (without a pause, on the thread that saw the
     * failure). Ending the future early (cancel −6, {@code orTimeout} −3, {@code completeOnTimeout} −6) ends the
     * attempt in progress the same way, or the pause, and makes no more.
     *
     * @param opcode the operation
     * @param arguments writes the arguments (once per attempt)
     * @param results reads the results from the whole reply
     * @param options the deadline; no opcode
     * @param <T> the result type
     * @return the results' future; exceptionally an {@link RxException} with the last attempt's abort code
     * @throws IllegalArgumentException if the options carry an opcode
     */
    @Override
    public <T> CompletableFuture<T> callAsync(int opcode, XdrMarshaller arguments, XdrUnmarshaller<T> results,
                                              RxCallOptions options) {
        ApiAccess.api().requireNoOpcode(options, "callAsync(opcode, arguments, results, options)");
        RxCallOptions bound = ApiAccess.api().bound(options); // repeats start on the callback executor: capture the context here
        return typedAsync(opcode, arguments, results, bound, InheritedContext.deadline(rt, bound));
    }

    private <T> CompletableFuture<T> typedAsync(int opcode, XdrMarshaller arguments, XdrUnmarshaller<T> results,
                                                RxCallOptions options, long deadline) {
        CompletableFuture<T> result = new CompletableFuture<>();
        AtomicReference<Future<?>> attemptInProgress = new AtomicReference<>(); // or the pause before it
        result.whenComplete((v, t) -> CallerEnds.endLike(result, attemptInProgress.get()));
        attemptAsync(opcode, arguments, results, options, deadline, 1, attemptsFor(opcode), result,
                attemptInProgress, null);
        return result;
    }

    /** @param earlier the failures of the attempts before this one (repeated), oldest first; null for none */
    private <T> void attemptAsync(int opcode, XdrMarshaller arguments, XdrUnmarshaller<T> results,
                                  RxCallOptions options, long deadline, int attempt, int attempts,
                                  CompletableFuture<T> result, AtomicReference<Future<?>> attemptInProgress,
                                  List<Throwable> earlier) {
        if (result.isDone()) {
            return; // cancelled by the application: no further attempt
        }
        if (attempt > 1) {
            retries.increment();
        }
        PoolMembers.Member m;
        CompletableFuture<T> f;
        try {
            m = acquire();
        } catch (RxException | RuntimeException e) {
            // as a connection's refusal: on the callback executor
            rt.callback(() -> result.completeExceptionally(AttemptFailures.withEarlier(e, earlier)));
            return;
        }
        try {
            f = m.connection.callAsync(opcode, arguments, results, attemptOptions(options, deadline));
        } catch (RuntimeException e) { // an argument marshaller's own failure, or a deadline already past
            members.release(m);
            result.completeExceptionally(e);
            return;
        }
        attemptInProgress.set(f);
        CallerEnds.endLike(result, f); // the caller ended it while the attempt started
        f.whenComplete((v, t) -> {
            members.release(m, t);
            if (t == null) {
                result.complete(v);
                return;
            }
            Throwable cause = HandlerFailures.unwrap(t);
            long ns = pauseBeforeRepeat(cause, attempt, attempts, deadline);
            if (ns < 0) {
                result.completeExceptionally(AttemptFailures.withEarlier(cause, earlier));
                return;
            }
            List<Throwable> failed = earlier == null ? new ArrayList<>() : earlier;
            failed.add(cause);
            Runnable next = () -> attemptAsync(opcode, arguments, results, options, deadline, attempt + 1, attempts,
                    result, attemptInProgress, failed);
            if (ns == 0) {
                next.run();
                return;
            }
            attemptInProgress.set(pause.schedule(() -> rt.callback(next), ns));
            CallerEnds.endLike(result, attemptInProgress.get());
        });
    }

    /** @return the time left before {@code deadline} (ns on the endpoint's clock), at least 1 ns */
    private Duration left(long deadline) {
        return Duration.ofNanos(Math.max(1, deadline - rt.now()));
    }

    private int attemptsFor(int opcode) {
        return config.retry().isIdempotent(opcode) ? config.retry().maxAttempts() : 1;
    }

    /**
     * @return the pause before repeating attempt number {@code attempt} (of at most {@code attempts}), which
     *     failed, ns; {@link RetryPause#NO_REPEAT} when it is not repeated (none after the last attempt)
     */
    private long pauseBeforeRepeat(Throwable failure, int attempt, int attempts, long deadline) {
        if (attempt >= attempts || !RxRetryPolicy.retryable(failure)) {
            return RetryPause.NO_REPEAT;
        }
        return pause.pauseNs(config.retry(), attempt, deadline, rt.now());
    }

    private PoolMembers.Member acquire() throws RxException {
        if (rt.closing) {
            throw RxException.local(RxCodes.RX_INVALID_OPERATION, RxException.Reason.ENDPOINT_CLOSING,
                    "endpoint closing", null);
        }
        try {
            return members.acquire();
        } catch (IllegalStateException e) { // the endpoint began closing while a connection was being opened
            throw RxException.local(RxCodes.RX_INVALID_OPERATION, RxException.Reason.ENDPOINT_CLOSING,
                    "endpoint closing", e);
        }
    }

    /** Closes every connection (their unfinished calls are aborted with RX_USER_ABORT −6); later calls fail (−2). */
    @Override
    public void close() {
        sweep.cancel(false);
        members.close();
    }

    @Override
    public String toString() {
        return "RxConnectionPool[" + server + ", service " + serviceId + ", " + stats() + "]";
    }
}
