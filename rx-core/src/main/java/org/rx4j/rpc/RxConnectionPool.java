// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc;

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
        this.rt = endpoint.runtime();
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
     * {@link RxConnection#newCall()}. Never repeated: the pool does not know what the stream carries.
     *
     * @return the call (close it: its connection counts it busy until it ends)
     * @throws RxException RX_INVALID_OPERATION (−2) if the pool is closed or the endpoint is closing
     */
    @Override
    public RxCall newCall() throws RxException {
        return startCall(null, RxCallInfo.NO_OPCODE);
    }

    /**
     * As {@link #newCall()} with a hard deadline; see {@link RxConnection#newCall(Duration)}.
     *
     * @param timeout the call's whole life, from now, positive
     * @return the call
     * @throws RxException as {@link #newCall()}
     * @throws IllegalArgumentException if timeout is not positive
     */
    @Override
    public RxCall newCall(Duration timeout) throws RxException {
        rt.deadlineFromNow(timeout);
        return startCall(timeout, RxCallInfo.NO_OPCODE);
    }

    /**
     * As {@link #newCall()}, with {@code opcode} already written; see {@link RxConnection#newCall(int)}. Never
     * repeated.
     *
     * @param opcode the procedure's opcode
     * @return the call (close it)
     * @throws RxException as {@link #newCall()}
     */
    @Override
    public RxCall newCall(int opcode) throws RxException {
        return startCall(null, opcode);
    }

    /**
     * As {@link #newCall(int)} with a hard deadline; see {@link RxConnection#newCall(int, Duration)}.
     *
     * @param opcode the procedure's opcode
     * @param timeout the call's whole life, from now, positive
     * @return the call
     * @throws RxException as {@link #newCall()}
     * @throws IllegalArgumentException if timeout is not positive
     */
    @Override
    public RxCall newCall(int opcode, Duration timeout) throws RxException {
        rt.deadlineFromNow(timeout);
        return startCall(timeout, opcode);
    }

    /** @param opcodeOrNone the opcode to write first, or {@link RxCallInfo#NO_OPCODE} for a raw stream */
    private RxCall startCall(Duration timeout, long opcodeOrNone) throws RxException {
        PoolMembers.Member m = acquire();
        RxCall call;
        try {
            RxConnection c = m.connection;
            int op = (int) opcodeOrNone;
            call = opcodeOrNone == RxCallInfo.NO_OPCODE ? (timeout == null ? c.newCall() : c.newCall(timeout))
                    : timeout == null ? c.newCall(op) : c.newCall(op, timeout);
        } catch (RxException | RuntimeException e) {
            members.release(m);
            throw e;
        }
        call.completion().whenComplete((v, t) -> members.release(m, t));
        return call;
    }

    /**
     * Sends a whole request and returns the whole reply, blocking; never repeated (the opcode is not known).
     *
     * @param request request bytes
     * @return reply bytes
     * @throws RxException with the abort code if the call fails
     * @throws IOException on interruption
     */
    @Override
    public byte[] call(byte[] request) throws IOException {
        PoolMembers.Member m = acquire();
        IOException failure = null;
        try {
            return m.connection.call(request);
        } catch (IOException e) {
            failure = e;
            throw e;
        } finally {
            members.release(m, failure);
        }
    }

    /**
     * As {@link RxConnection#callAsync(byte[])} on a connection with a free channel; never repeated.
     *
     * @param request the whole request (not copied: must not change until the future completes)
     * @return the reply; exceptionally an {@link RxException} (−2 if the pool is closed)
     */
    @Override
    public CompletableFuture<byte[]> callAsync(byte[] request) {
        return rawAsync(request, null);
    }

    /**
     * As {@link RxConnection#callAsync(byte[], Duration)} on a connection with a free channel; never repeated.
     *
     * @param request the whole request
     * @param timeout the call's whole life, from now, positive
     * @return the reply future
     * @throws IllegalArgumentException if timeout is not positive
     */
    @Override
    public CompletableFuture<byte[]> callAsync(byte[] request, Duration timeout) {
        rt.deadlineFromNow(timeout);
        return rawAsync(request, timeout);
    }

    private CompletableFuture<byte[]> rawAsync(byte[] request, Duration timeout) {
        PoolMembers.Member m;
        try {
            m = acquire();
        } catch (RxException e) {
            // On the callback executor, as a closed connection's own refusal: dependent stages never run here.
            CompletableFuture<byte[]> refused = new CompletableFuture<>();
            rt.callback(() -> refused.completeExceptionally(e));
            return refused;
        }
        CompletableFuture<byte[]> f = timeout == null ? m.connection.callAsync(request)
                : m.connection.callAsync(request, timeout);
        f.whenComplete((v, t) -> members.release(m, t));
        return f;
    }

    /**
     * One rxgen-style call, blocking, repeated on a connection-level failure when the retry policy marks
     * {@code opcode} idempotent ({@link RxRetryPolicy#retryable(Throwable)}); the calling thread waits out the
     * policy's backoff pause before each repeat (holding no connection). See
     * {@link RxConnection#call(int, XdrMarshaller, XdrUnmarshaller)}.
     *
     * @param opcode the operation
     * @param arguments writes the arguments (once per attempt)
     * @param results reads the results
     * @param <T> the result type
     * @return what {@code results} returned
     * @throws RxException with the last attempt's abort code; RX_USER_ABORT (−6) when the thread is interrupted
     *     during a pause (its cause: the failure the call would have ended with; the interrupt status is kept)
     * @throws IOException if interrupted during an attempt
     */
    @Override
    public <T> T call(int opcode, XdrMarshaller arguments, XdrUnmarshaller<T> results) throws IOException {
        return typed(opcode, arguments, results, Long.MAX_VALUE);
    }

    /**
     * As {@link #call(int, XdrMarshaller, XdrUnmarshaller)} with a hard deadline over all attempts and pauses: when
     * the deadline would pass during the pause before a repeat, the call fails at once with the last failure.
     *
     * @param opcode the operation
     * @param arguments writes the arguments (once per attempt)
     * @param results reads the results
     * @param timeout the whole life of the call and its repeats, from now, positive
     * @param <T> the result type
     * @return what {@code results} returned
     * @throws RxException with the last attempt's abort code (−3 when the deadline passed); −6 when interrupted
     *     during a pause, as above
     * @throws IOException if interrupted during an attempt
     * @throws IllegalArgumentException if timeout is not positive
     */
    @Override
    public <T> T call(int opcode, XdrMarshaller arguments, XdrUnmarshaller<T> results, Duration timeout)
            throws IOException {
        return typed(opcode, arguments, results, rt.deadlineFromNow(timeout));
    }

    private <T> T typed(int opcode, XdrMarshaller arguments, XdrUnmarshaller<T> results, long deadline)
            throws IOException {
        int attempts = attemptsFor(opcode);
        List<Throwable> earlier = null;
        for (int attempt = 1; ; attempt++) {
            PoolMembers.Member m = acquire();
            RxException failed = null;
            try {
                return deadline == Long.MAX_VALUE ? m.connection.call(opcode, arguments, results)
                        : m.connection.call(opcode, arguments, results, left(deadline));
            } catch (RxException e) {
                failed = e;
            } finally {
                members.release(m, failed);
            }
            long ns = pauseBeforeRepeat(failed, attempt, attempts, deadline);
            if (ns < 0) {
                throw withEarlier(failed, earlier);
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
     * One rxgen-style call without blocking, repeated as {@link #call(int, XdrMarshaller, XdrUnmarshaller)} is; no
     * thread waits out the backoff pause: the repeat is timed on the endpoint's event loop and starts on the callback
     * executor (without a pause, on the thread that saw the failure). Ending the future early (cancel −6,
     * {@code orTimeout} −3, {@code completeOnTimeout} −6) ends the attempt in progress the same way, or the pause,
     * and makes no more.
     *
     * @param opcode the operation
     * @param arguments writes the arguments (once per attempt)
     * @param results reads the results from the whole reply
     * @param <T> the result type
     * @return the results' future; exceptionally an {@link RxException} with the last attempt's abort code
     */
    @Override
    public <T> CompletableFuture<T> callAsync(int opcode, XdrMarshaller arguments, XdrUnmarshaller<T> results) {
        return typedAsync(opcode, arguments, results, Long.MAX_VALUE);
    }

    /**
     * As {@link #callAsync(int, XdrMarshaller, XdrUnmarshaller)} with a hard deadline over all attempts.
     *
     * @param opcode the operation
     * @param arguments writes the arguments (once per attempt)
     * @param results reads the results from the whole reply
     * @param timeout the whole life of the call and its repeats, from now, positive
     * @param <T> the result type
     * @return the results' future; exceptionally an {@link RxException} with the last attempt's abort code
     * @throws IllegalArgumentException if timeout is not positive
     */
    @Override
    public <T> CompletableFuture<T> callAsync(int opcode, XdrMarshaller arguments, XdrUnmarshaller<T> results,
                                              Duration timeout) {
        return typedAsync(opcode, arguments, results, rt.deadlineFromNow(timeout));
    }

    private <T> CompletableFuture<T> typedAsync(int opcode, XdrMarshaller arguments, XdrUnmarshaller<T> results,
                                                long deadline) {
        CompletableFuture<T> result = new CompletableFuture<>();
        AtomicReference<Future<?>> attemptInProgress = new AtomicReference<>(); // or the pause before it
        result.whenComplete((v, t) -> CallerEnds.endLike(result, attemptInProgress.get()));
        attemptAsync(opcode, arguments, results, deadline, 1, attemptsFor(opcode), result, attemptInProgress, null);
        return result;
    }

    /** @param earlier the failures of the attempts before this one (repeated), oldest first; null for none */
    private <T> void attemptAsync(int opcode, XdrMarshaller arguments, XdrUnmarshaller<T> results, long deadline,
                                  int attempt, int attempts, CompletableFuture<T> result,
                                  AtomicReference<Future<?>> attemptInProgress, List<Throwable> earlier) {
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
            rt.callback(() -> result.completeExceptionally(withEarlier(e, earlier)));
            return;
        }
        try {
            f = deadline == Long.MAX_VALUE ? m.connection.callAsync(opcode, arguments, results)
                    : m.connection.callAsync(opcode, arguments, results, left(deadline));
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
                result.completeExceptionally(withEarlier(cause, earlier));
                return;
            }
            List<Throwable> failed = earlier == null ? new ArrayList<>() : earlier;
            failed.add(cause);
            Runnable next = () -> attemptAsync(opcode, arguments, results, deadline, attempt + 1, attempts, result,
                    attemptInProgress, failed);
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
     * The last attempt's failure carries the earlier attempts' failures as its suppressed exceptions, oldest first,
     * so a caller sees how many attempts were made ({@code getSuppressed().length + 1}) and why each failed.
     */
    static <E extends Throwable> E withEarlier(E last, List<Throwable> earlier) {
        if (earlier != null) {
            for (Throwable t : earlier) {
                if (t != last) {
                    last.addSuppressed(t);
                }
            }
        }
        return last;
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
