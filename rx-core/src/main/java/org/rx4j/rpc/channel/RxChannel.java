// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc.channel;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;
import org.rx4j.rpc.RxCall;
import org.rx4j.rpc.RxCallOptions;
import org.rx4j.rpc.RxCallTarget;
import org.rx4j.rpc.RxEndpoint;
import org.rx4j.rpc.errors.RxCodes;
import org.rx4j.rpc.errors.RxException;
import org.rx4j.rpc.pool.AttemptFailures;
import org.rx4j.rpc.pool.CallerEnds;
import org.rx4j.rpc.pool.ChannelAddresses;
import org.rx4j.rpc.pool.InheritedContext;
import org.rx4j.rpc.pool.RetryBudgetLedger;
import org.rx4j.rpc.pool.RetryPause;
import org.rx4j.rpc.runtime.ApiAccess;
import org.rx4j.rpc.runtime.EndpointRuntime;
import org.rx4j.rpc.runtime.HandlerFailures;
import org.rx4j.rpc.xdr.XdrMarshaller;
import org.rx4j.rpc.xdr.XdrUnmarshaller;
import org.rx4j.security.RxNullSecurityClass;
import org.rx4j.security.SecurityClass;

/**
 * One client over several servers of the same service (docs/embedding.md "Channels"), in the shape of gRPC-java's
 * {@code ManagedChannel} with a load-balancing policy or Finagle's client: one {@link RxConnectionPool} per address;
 * each attempt goes to an address picked by {@link RxChannelConfig.Balancing} (round robin or least outstanding); an
 * address whose attempts fail at the connection level {@link RxChannelConfig#consecutiveFailures()} times in a row is
 * ejected for a while and then re-probed with one live call (outlier ejection, as Envoy's); a typed call the
 * {@link RxRetryPolicy} marks idempotent is repeated on another address after such a failure, while the channel-wide
 * {@link RxRetryBudget} allows. {@link #stats()} gives each address's counts (the Micrometer binder
 * {@code RxChannelMetrics} of rx-metrics-micrometer exports them).
 *
 * <p>Every call form runs through one method, {@code execute}: it picks the address, starts the attempt on its pool,
 * records the outcome for the address's health, and decides on a repeat; the forms differ only in what an attempt
 * starts. Blocking forms wait for that method's future (so a typed call's results are read on the endpoint's callback
 * executor, as {@code callAsync}'s are). Streaming calls and whole-byte calls are never repeated. Thread-safe.
 *
 * <p>Not {@code UbikClient}: ubik's rule (ask the server that answered last; move on only when it fails or has no
 * quorum) is stickiness, not balancing, and rx-afs's {@code UbikClient} keeps it beside this class.
 */
public final class RxChannel implements RxCallTarget {
    private final EndpointRuntime rt;
    private final List<InetSocketAddress> servers;
    private final int serviceId;
    private final SecurityClass securityClass;
    private final RxChannelConfig config;
    private final ChannelAddresses addresses;
    private final RetryBudgetLedger budget;
    private final LongAdder calls = new LongAdder();
    private final LongAdder retries = new LongAdder();
    private final LongAdder refusedByBudget = new LongAdder();
    private volatile boolean closed;
    /** The backoff's jitter and waiting; a test replaces it to record the pauses instead of waiting. */
    private volatile RetryPause pause;

    /** An address's place in the channel now. */
    public enum AddressState {
        /** Picked by the balancing. */
        SERVING,
        /** Ejected: not picked until its ejection time passes. */
        EJECTED,
        /** Ejected, its time passed, and one call is running on it as its re-probe. */
        PROBING
    }

    /**
     * One address's counts, for monitoring and tests.
     *
     * @param address the server's address
     * @param state serving, ejected or being re-probed
     * @param outstanding attempts running on it now
     * @param attempts attempts started on it so far (first attempts and repeats)
     * @param failures attempts that failed at the connection level so far (−1, or the server's −10 or −100)
     * @param ejections times it was ejected so far
     */
    public record AddressStats(InetSocketAddress address, AddressState state, int outstanding, long attempts,
                               long failures, long ejections) {
    }

    /**
     * The channel's counts.
     *
     * @param calls calls started so far (each counted once, whatever its repeats)
     * @param retries repeats made so far
     * @param retriesRefused repeats the policy allowed but the budget refused so far
     * @param addresses each address's counts, in list order
     */
    public record Stats(long calls, long retries, long retriesRefused, List<AddressStats> addresses) {
    }

    /** What one attempt starts on the pool of the address picked for it. */
    private interface Attempt<T> {
        /**
         * @param pool the address's pool
         * @param timeout the time left before the call's deadline, or null for none
         * @return the attempt's value and its end (the same future for whole calls; a stream's completion otherwise)
         * @throws RxException when the pool refuses the call at once
         */
        Started<T> start(RxConnectionPool pool, Duration timeout) throws RxException;
    }

    /**
     * @param value what the caller gets
     * @param end when the attempt is over (the address's outstanding count and health follow it)
     */
    private record Started<T>(CompletableFuture<T> value, CompletionStage<?> end) {
        static <T> Started<T> whole(CompletableFuture<T> f) {
            return new Started<>(f, f);
        }
    }

    private RxChannel(RxEndpoint endpoint, List<InetSocketAddress> servers, int serviceId, SecurityClass sc,
                      RxChannelConfig config) {
        this.rt = ApiAccess.api().runtime(endpoint);
        this.servers = List.copyOf(servers);
        this.serviceId = serviceId;
        this.securityClass = sc;
        this.config = config;
        if (this.servers.isEmpty() || new HashSet<>(this.servers).size() != this.servers.size()) {
            throw new IllegalArgumentException("need at least one address, each once: " + servers);
        }
        RxPoolConfig p = config.pool();
        RxPoolConfig each = new RxPoolConfig(p.maxConnections(), p.idleTimeoutNs(), RxRetryPolicy.none(), p.ticker());
        LongSupplier clock = config.ticker() != null ? config.ticker() : rt::now;
        List<ChannelAddresses.Address> list = new ArrayList<>();
        try {
            for (InetSocketAddress server : this.servers) {
                list.add(new ChannelAddresses.Address(server,
                        RxConnectionPool.open(endpoint, server, serviceId, sc, each), list.size()));
            }
        } catch (RuntimeException e) {
            list.forEach(a -> a.pool.close());
            throw e;
        }
        this.addresses = new ChannelAddresses(list, config, clock);
        this.budget = new RetryBudgetLedger(config.budget(), clock);
        this.pause = RetryPause.on(rt.transport.loop());
    }

    /** Tests: records the pauses instead of waiting. */
    void pause(RetryPause replacement) {
        this.pause = replacement;
    }

    /**
     * Opens a channel to an rxnull service with the defaults ({@link RxChannelConfig#defaults()}).
     *
     * @param endpoint the local endpoint (the channel never closes it)
     * @param servers the servers' addresses (resolved, each once, at least one)
     * @param serviceId 1..65535
     * @return the channel, with one pool per address (no packet sent yet)
     * @throws IllegalArgumentException if the list is empty or repeats an address, an address is unresolved or
     *     serviceId is out of range
     * @throws IllegalStateException if the endpoint is closing
     */
    public static RxChannel open(RxEndpoint endpoint, List<InetSocketAddress> servers, int serviceId) {
        return open(endpoint, servers, serviceId, RxNullSecurityClass.INSTANCE, RxChannelConfig.defaults());
    }

    /**
     * Opens a channel; every connection of every address uses {@code securityClass}.
     *
     * @param endpoint the local endpoint (the channel never closes it)
     * @param servers the servers' addresses (resolved, each once, at least one)
     * @param serviceId 1..65535
     * @param securityClass the class every connection uses
     * @param config balancing, ejection, repeats, budget, pools, clock
     * @return the channel, with one pool per address (no packet sent yet)
     * @throws IllegalArgumentException as {@link #open(RxEndpoint, List, int)}
     * @throws IllegalStateException if the endpoint is closing
     */
    public static RxChannel open(RxEndpoint endpoint, List<InetSocketAddress> servers, int serviceId,
                                 SecurityClass securityClass, RxChannelConfig config) {
        return new RxChannel(Objects.requireNonNull(endpoint, "endpoint"), Objects.requireNonNull(servers, "servers"),
                serviceId, Objects.requireNonNull(securityClass, "securityClass"),
                Objects.requireNonNull(config, "config"));
    }

    /** @return the first address of the list (a channel spans {@link #servers()}) */
    @Override
    public InetSocketAddress server() {
        return servers.get(0);
    }

    /** @return every address, in list order */
    public List<InetSocketAddress> servers() {
        return servers;
    }

    @Override
    public int serviceId() {
        return serviceId;
    }

    @Override
    public SecurityClass securityClass() {
        return securityClass;
    }

    /** @return the settings this channel runs with */
    public RxChannelConfig config() {
        return config;
    }

    /** @return a snapshot of the channel's and each address's counts */
    public Stats stats() {
        List<AddressStats> each = new ArrayList<>();
        addresses.read(a -> each.add(new AddressStats(a.address,
                !a.ejected ? AddressState.SERVING : a.probing ? AddressState.PROBING : AddressState.EJECTED,
                a.outstanding, a.attempts, a.failures, a.ejections)));
        return new Stats(calls.sum(), retries.sum(), refusedByBudget.sum(), List.copyOf(each));
    }

    /**
     * @param address one of {@link #servers()}
     * @return the pool the channel keeps for it (for its {@link RxConnectionPool#stats()}; do not close it)
     * @throws IllegalArgumentException if the address is not one of the channel's
     */
    public RxConnectionPool pool(InetSocketAddress address) {
        for (ChannelAddresses.Address a : addresses.all()) {
            if (a.address.equals(address)) {
                return a.pool;
            }
        }
        throw new IllegalArgumentException("not an address of this channel: " + address);
    }

    /**
     * Starts a streaming call on an address picked by the balancing, with the options' deadline and (when they carry
     * one) its opcode already written; never repeated (the stream is the caller's). The other forms without options
     * are {@link RxCallTarget}'s defaults.
     *
     * @param options the call's deadline and opcode ({@link RxCallOptions#DEFAULT}: none)
     * @return the call (close it)
     * @throws RxException if no address can start it (−2 if the channel is closed)
     */
    @Override
    public RxCall newCall(RxCallOptions options) throws RxException {
        RxCallOptions bound = ApiAccess.api().bound(options); // the stream may start on another thread
        CompletableFuture<RxCall> f = execute(ApiAccess.NO_OPCODE, Long.MAX_VALUE, (pool, ignored) -> {
            RxCall call = pool.newCall(bound);
            return new Started<>(CompletableFuture.completedFuture(call), call.completion());
        });
        try {
            return await(f);
        } catch (RxException e) {
            throw e;
        } catch (IOException e) { // a stream starts without waiting: no other failure is possible
            throw RxException.local(RxCodes.RX_INVALID_OPERATION, e.getMessage(), e);
        }
    }

    /**
     * As {@link RxConnectionPool#callAsync(byte[], RxCallOptions)} on an address picked by the balancing; never
     * repeated (the opcode is not known to the channel).
     *
     * @param request the whole request (not copied: must not change until the future completes)
     * @param options the call's deadline, and an opcode to send before the request
     * @return the reply; exceptionally an {@link RxException} (−2 if the channel is closed)
     */
    @Override
    public CompletableFuture<byte[]> callAsync(byte[] request, RxCallOptions options) {
        RxCallOptions bound = ApiAccess.api().bound(options); // attempts may start on the callback executor
        return execute(ApiAccess.NO_OPCODE, InheritedContext.deadline(rt, bound),
                (pool, t) -> Started.whole(pool.callAsync(request, ApiAccess.api().withTimeoutOrNone(bound, t))));
    }

    /**
     * One rxgen-style call, blocking; repeated on another address after a connection-level failure when the
     * channel's {@link RxRetryPolicy} marks {@code opcode} idempotent and the budget allows, within the options'
     * deadline over all attempts and pauses. The results are read on the endpoint's callback executor, the calling
     * thread waits.
     *
     * @param opcode the operation
     * @param arguments writes the arguments (once per attempt)
     * @param results reads the results from the whole reply
     * @param options the deadline of the call and its repeats (no opcode: it is {@code opcode})
     * @param <T> the result type
     * @return what {@code results} returned
     * @throws RxException with the last attempt's abort code (−3 when the deadline passed), the earlier attempts'
     *     failures suppressed
     * @throws IOException if interrupted (the call is then cancelled with −6)
     * @throws IllegalArgumentException if the options carry an opcode
     */
    @Override
    public <T> T call(int opcode, XdrMarshaller arguments, XdrUnmarshaller<T> results, RxCallOptions options)
            throws IOException {
        return await(callAsync(opcode, arguments, results, options));
    }

    /**
     * One rxgen-style call without blocking, repeated as {@link #call(int, XdrMarshaller, XdrUnmarshaller,
     * RxCallOptions)} is; the pause before a repeat is timed on the endpoint's event loop. Ending the future early
     * (cancel, {@code orTimeout}, {@code completeOnTimeout}) ends the attempt in progress the same way, or the pause,
     * and makes no more.
     *
     * @param opcode the operation
     * @param arguments writes the arguments (once per attempt)
     * @param results reads the results from the whole reply
     * @param options the deadline of the call and its repeats (no opcode: it is {@code opcode})
     * @param <T> the result type
     * @return the results' future; exceptionally an {@link RxException} with the last attempt's abort code
     * @throws IllegalArgumentException if the options carry an opcode
     */
    @Override
    public <T> CompletableFuture<T> callAsync(int opcode, XdrMarshaller arguments, XdrUnmarshaller<T> results,
                                              RxCallOptions options) {
        ApiAccess.api().requireNoOpcode(options, "a typed call");
        RxCallOptions bound = ApiAccess.api().bound(options); // attempts may start on the callback executor
        return execute(opcode, InheritedContext.deadline(rt, bound),
                (pool, t) -> Started.whole(pool.callAsync(opcode, arguments, results, ApiAccess.api().withTimeoutOrNone(bound, t))));
    }

    /**
     * The one call method every form delegates to: attempts on picked addresses, outcomes recorded, repeats decided.
     *
     * @param opcodeOrNone the opcode when the call may be repeated (idempotent per the policy), else
     *     {@link ApiAccess#NO_OPCODE}
     * @param deadline ns on the endpoint's clock, or {@code Long.MAX_VALUE}
     * @param attempt what each attempt starts
     * @return the caller's future
     */
    private <T> CompletableFuture<T> execute(long opcodeOrNone, long deadline, Attempt<T> attempt) {
        calls.increment();
        budget.callStarted();
        int attempts = opcodeOrNone != ApiAccess.NO_OPCODE && config.retry().isIdempotent((int) opcodeOrNone)
                ? config.retry().maxAttempts() : 1;
        Flight<T> flight = new Flight<>(attempt, deadline, attempts);
        flight.result.whenComplete((v, t) -> CallerEnds.endLike(flight.result, flight.inProgress.get()));
        attemptOnce(flight, 1, null);
        return flight.result;
    }

    /** One call's state across its attempts (which run one after the other). */
    private static final class Flight<T> {
        final Attempt<T> attempt;
        final long deadline;
        final int attempts;
        final CompletableFuture<T> result = new CompletableFuture<>();
        /** The attempt in progress, or the pause before the next. */
        final AtomicReference<Future<?>> inProgress = new AtomicReference<>();
        final List<ChannelAddresses.Address> tried = new ArrayList<>();

        Flight(Attempt<T> attempt, long deadline, int attempts) {
            this.attempt = attempt;
            this.deadline = deadline;
            this.attempts = attempts;
        }
    }

    private <T> void attemptOnce(Flight<T> flight, int n, List<Throwable> earlier) {
        if (flight.result.isDone()) {
            return; // ended by the caller: no further attempt
        }
        if (closed) {
            flight.result.completeExceptionally(AttemptFailures.withEarlier(RxException.local(
                    RxCodes.RX_INVALID_OPERATION, RxException.Reason.CONNECTION_CLOSED, "channel closed", null),
                    earlier));
            return;
        }
        ChannelAddresses.Pick pick;
        synchronized (flight.tried) {
            pick = addresses.pick(flight.tried);
            flight.tried.add(pick.address());
        }
        Started<T> started;
        try {
            Duration left = flight.deadline == Long.MAX_VALUE ? null
                    : Duration.ofNanos(Math.max(1, flight.deadline - rt.now()));
            started = flight.attempt.start(pick.address().pool, left);
        } catch (RxException | RuntimeException e) {
            addresses.ended(pick, outcome(e));
            failed(flight, n, e, earlier);
            return;
        }
        boolean whole = started.end() == started.value();
        if (!whole) {
            started.end().whenComplete((v, t) -> addresses.ended(pick, outcome(t)));
        }
        flight.inProgress.set(started.value());
        CallerEnds.endLike(flight.result, started.value()); // the caller ended it while the attempt started
        started.value().whenComplete((v, t) -> {
            if (whole) { // the address's health first, so the next attempt's pick sees it
                addresses.ended(pick, outcome(t));
            }
            if (t == null) {
                flight.result.complete(v);
            } else {
                failed(flight, n, HandlerFailures.unwrap(t), earlier);
            }
        });
    }

    private <T> void failed(Flight<T> flight, int n, Throwable cause, List<Throwable> earlier) {
        long ns = n >= flight.attempts || !RxRetryPolicy.retryable(cause) ? RetryPause.NO_REPEAT
                : pause.pauseNs(config.retry(), n, flight.deadline, rt.now());
        if (ns >= 0 && !budget.tryRepeat()) {
            refusedByBudget.increment();
            ns = RetryPause.NO_REPEAT;
        }
        if (ns < 0) {
            flight.result.completeExceptionally(AttemptFailures.withEarlier(cause, earlier));
            return;
        }
        retries.increment();
        List<Throwable> failures = earlier == null ? new ArrayList<>() : earlier;
        failures.add(cause);
        Runnable next = () -> attemptOnce(flight, n + 1, failures);
        if (ns == 0) {
            next.run();
            return;
        }
        flight.inProgress.set(pause.schedule(() -> rt.callback(next), ns));
        CallerEnds.endLike(flight.result, flight.inProgress.get());
    }

    /** How an attempt's end bears on its address's health (docs/embedding.md "Channels", Ejection). */
    static ChannelAddresses.Outcome outcome(Throwable t) {
        if (t == null) {
            return ChannelAddresses.Outcome.ANSWERED;
        }
        Throwable cause = HandlerFailures.unwrap(t);
        if (!(cause instanceof RxException rx)) {
            return ChannelAddresses.Outcome.NEUTRAL; // a cancel, or an argument marshaller's own failure
        }
        if (RxRetryPolicy.retryable(rx)) {
            return ChannelAddresses.Outcome.FAILED;
        }
        return rx.remote() || rx.code() == RxCodes.RXGEN_CC_UNMARSHAL ? ChannelAddresses.Outcome.ANSWERED
                : ChannelAddresses.Outcome.NEUTRAL;
    }

    /** Waits for a form's future: its failure is thrown as it is; an interrupt cancels the call (−6). */
    private static <T> T await(CompletableFuture<T> f) throws IOException {
        try {
            return f.get();
        } catch (InterruptedException e) {
            f.cancel(false);
            Thread.currentThread().interrupt();
            InterruptedIOException ie = new InterruptedIOException("interrupted: the call was cancelled (-6)");
            ie.initCause(e);
            throw ie;
        } catch (CancellationException e) {
            throw RxException.local(RxCodes.RX_USER_ABORT, "cancelled", e);
        } catch (ExecutionException e) {
            Throwable cause = HandlerFailures.unwrap(e.getCause());
            if (cause instanceof IOException io) {
                throw io;
            }
            if (cause instanceof RuntimeException re) {
                throw re;
            }
            if (cause instanceof Error err) {
                throw err;
            }
            throw new IOException(cause);
        }
    }

    /**
     * Closes every address's pool (their unfinished calls are aborted with RX_USER_ABORT −6); later calls fail with
     * −2 (reason {@code CONNECTION_CLOSED}). Returns at once; idempotent.
     */
    @Override
    public void close() {
        closed = true;
        for (ChannelAddresses.Address a : addresses.all()) {
            a.pool.close();
        }
    }

    @Override
    public String toString() {
        return "RxChannel[" + servers + ", service " + serviceId + ", " + config.balancing() + "]";
    }
}
