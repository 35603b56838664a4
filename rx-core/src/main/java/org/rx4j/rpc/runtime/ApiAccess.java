// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc.runtime;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.Executor;
import java.util.function.IntConsumer;
import java.util.function.LongSupplier;
import org.rx4j.engine.call.CallOrigin;
import org.rx4j.engine.connection.Connection;
import org.rx4j.rpc.RxAsyncHandler;
import org.rx4j.rpc.RxAsyncStreams;
import org.rx4j.rpc.RxStreamHandler;
import org.rx4j.rpc.RxCall;
import org.rx4j.rpc.RxCallContext;
import org.rx4j.rpc.RxCallInfo;
import org.rx4j.rpc.RxCallOptions;
import org.rx4j.rpc.RxConnectionId;
import org.rx4j.rpc.RxContext;
import org.rx4j.rpc.RxEndpoint;
import org.rx4j.rpc.errors.RxException;
import org.rx4j.rpc.RxOpcodeHandler;
import org.rx4j.rpc.RxService;
import org.rx4j.rpc.LatencyStats;
import org.rx4j.rpc.stream.CallStreams;

/**
 * The rpc implementation's one way to the package-private members of the public API types (RxCall, RxCallContext,
 * RxCallInfo, RxCallOptions, RxConnectionId, RxContext, RxEndpoint, RxService, LatencyStats): the implementation
 * lives in unexported sub-packages and in {@code org.rx4j.rpc.channel}, and those members must not become public
 * API. {@code org.rx4j.rpc} installs the one instance when its bridge class is initialised, which {@link #api()}
 * forces on first use (the pattern of the JDK's {@code SharedSecrets}). Each method does exactly what the member it
 * names does.
 */
public abstract class ApiAccess {
    /** The opcode of a call whose opcode is not known (yet): below every int. */
    public static final long NO_OPCODE = Long.MIN_VALUE;

    private static ApiAccess installed;

    /** For the one subclass, in {@code org.rx4j.rpc}. */
    protected ApiAccess() {
    }

    /**
     * @param access the bridge; called once, by the bridge class's initialiser
     * @throws IllegalStateException if one is installed already
     */
    public static synchronized void install(ApiAccess access) {
        if (installed != null) {
            throw new IllegalStateException("ApiAccess installed twice");
        }
        installed = access;
    }

    /** @return the installed bridge (a constant after the first call) */
    public static ApiAccess api() {
        return Holder.API;
    }

    private static synchronized ApiAccess installedOrNull() {
        return installed;
    }

    /** Loads the bridge class once, so its initialiser installs it before the constant is read. */
    private static final class Holder {
        static final ApiAccess API = load();

        private static ApiAccess load() {
            try {
                Class.forName("org.rx4j.rpc.ApiBridge", true, ApiAccess.class.getClassLoader());
            } catch (ClassNotFoundException e) {
                throw new ExceptionInInitializerError(e);
            }
            ApiAccess a = installedOrNull();
            if (a == null) {
                throw new ExceptionInInitializerError("org.rx4j.rpc.ApiBridge installed nothing");
            }
            return a;
        }
    }

    /** @return a new call's cancellation context ({@code new RxCallContext()}) */
    public abstract RxCallContext newCallContext();

    /**
     * @param context the call's context
     * @param errorCode how the call ended, 0 for success
     * @param why the local reason, or null
     */
    public abstract void end(RxCallContext context, int errorCode, RxException.Reason why);

    /**
     * @param context the call's context
     * @param endNs when the call's hard dead time ends (endpoint clock, ns), or {@code Long.MAX_VALUE}
     */
    public abstract void hardDeadTimeEnd(RxCallContext context, long endNs);

    /**
     * @param context the call's context
     * @param deadlineNs the call's hard deadline (endpoint clock, ns), or {@code Long.MAX_VALUE} for none
     */
    public abstract void deadlineNs(RxCallContext context, long deadlineNs);

    /**
     * @param server whether this side serves the call
     * @param serviceId the Rx service id
     * @param opcodeOrNone the opcode, or {@link #NO_OPCODE}
     * @param procName the procedure's name, or null
     * @param peer the peer's address
     * @param connectionId the connection's identity
     * @param identity the authenticated caller, or null
     * @param context the call's cancellation context
     * @return what interceptors see of the call
     */
    public abstract RxCallInfo newCallInfo(boolean server, int serviceId, long opcodeOrNone, String procName,
            InetSocketAddress peer, RxConnectionId connectionId, org.rx4j.security.CallerIdentity identity,
            RxCallContext context);

    /**
     * @param c an engine connection
     * @return its identity
     */
    public abstract RxConnectionId connectionId(Connection c);

    /**
     * @param o where an engine call comes from
     * @return the identity of the call's connection
     */
    public abstract RxConnectionId connectionId(CallOrigin o);

    /**
     * @param call the server call's cancellation context
     * @param clock the server endpoint's clock, ns
     * @param ends runs the ends of the calls made in it
     * @return the context of a server call, for its handler
     */
    public abstract RxContext ofServerCall(RxCallContext call, LongSupplier clock, Executor ends);

    /**
     * @param context the context to make current on this thread
     * @return the context it replaces, for {@link #restore}
     */
    public abstract RxContext enter(RxContext context);

    /** @param previous what {@link #enter} returned */
    public abstract void restore(RxContext previous);

    /**
     * @param context a context
     * @param ended told the abort code when the context ends
     * @return undoes the registration
     */
    public abstract Runnable onEnd(RxContext context, IntConsumer ended);

    /**
     * @param context a context
     * @return true when the context ends with a handler's call ({@link #onEnd} may then run its listener); false for
     *     a context of no call, such as the root
     */
    public abstract boolean endsWithCall(RxContext context);

    /**
     * @param context a context
     * @param now the calling endpoint's clock now, ns
     * @return the context's deadline on that clock, ns, or {@code Long.MAX_VALUE} for none
     */
    public abstract long deadlineOn(RxContext context, long now);

    /**
     * @param options call options
     * @return the context the call is made in
     */
    public abstract RxContext context(RxCallOptions options);

    /**
     * @param options call options
     * @return their timeout, or null for none
     */
    public abstract Duration timeoutOrNull(RxCallOptions options);

    /**
     * @param streams the call's streams
     * @param server whether this side serves the call
     * @param peer the peer's address
     * @param connectionId the connection's identity
     * @param identity the authenticated caller, or null
     * @return the application's handle of the call
     */
    public abstract RxCall newCall(CallStreams streams, boolean server, InetSocketAddress peer,
            RxConnectionId connectionId, org.rx4j.security.CallerIdentity identity);

    /**
     * @param call a call
     * @return the streams behind it
     */
    public abstract CallStreams streams(RxCall call);

    /**
     * @param call a call
     * @param code the abort code, non-zero
     * @param reason the local reason
     */
    public abstract void abort(RxCall call, int code, RxException.Reason reason);

    /**
     * @param service a service
     * @param opcode an opcode
     * @return the blocking handler registered for it, or null
     */
    public abstract RxOpcodeHandler blockingRoute(RxService service, int opcode);

    /**
     * @param service a service
     * @param opcode an opcode
     * @return the asynchronous handler registered for it, or null
     */
    public abstract RxAsyncHandler asyncRoute(RxService service, int opcode);

    /**
     * @param service a service
     * @param opcode an opcode
     * @return the streaming handler registered for it, or null
     */
    public abstract RxStreamHandler streamRoute(RxService service, int opcode);

    /**
     * @param call a call (a server's, for a stream handler)
     * @return its non-blocking form ({@link RxCall#async()})
     * @throws java.io.IOException the call's failure, if it already failed
     */
    public abstract RxAsyncStreams asyncStreams(RxCall call) throws java.io.IOException;

    /**
     * @param counts the histogram's bucket counts (taken, not copied)
     * @param totalNs the sum of the samples, ns
     * @param maxNs the largest sample, ns
     * @return the snapshot
     */
    public abstract LatencyStats latencyStats(long[] counts, long totalNs, long maxNs);

    /**
     * @param endpoint an endpoint
     * @return its shared RPC state, for the pools and channels opened on it
     */
    public abstract EndpointRuntime runtime(RxEndpoint endpoint);

    /**
     * @param options call options
     * @return them with the context current on this thread captured, for attempts that start on other threads
     */
    public abstract RxCallOptions bound(RxCallOptions options);

    /**
     * @param options call options
     * @param left the time left for an attempt, or null for none
     * @return the options with that deadline (or none), the rest kept
     */
    public abstract RxCallOptions withTimeoutOrNone(RxCallOptions options, Duration left);

    /**
     * @param options call options
     * @param form the call form's name, for the message
     * @throws IllegalArgumentException if the options carry an opcode (the typed forms take it as an argument)
     */
    public abstract void requireNoOpcode(RxCallOptions options, String form);
}
