// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc;

import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import org.rx4j.security.RxNullSecurityClass;
import org.rx4j.security.SecurityClass;

/**
 * A server-side service, the one thing an endpoint registers ({@link RxEndpoint#registerService(RxService)},
 * {@link RxEndpoint.Builder#service(RxService)}). Either of two kinds:
 * <ul>
 *   <li>rxgen's convention (rx-wire-facts.md §6): the first 4 bytes of each request are a big-endian opcode that
 *       picks the operation. Maps opcodes to blocking handlers (worker pool) or non-blocking ones (event loop:
 *       whole messages, or streams through {@link Builder#stream}); a
 *       request with any other opcode is aborted with RXGEN_OPCODE (−455), and one shorter than 4 bytes with
 *       RXGEN_DECODE (−454), as rxgen's generated dispatch does;</li>
 *   <li>whole-stream ({@link Builder#wholeStream(RxCallHandler)}): one blocking handler gets each call's whole
 *       request stream on the worker pool (as rxperf's server does), optionally with a router that serves small
 *       calls on the event loop ({@link Builder#wholeStream(RxCallHandler, int, RxCallRouter)}).</li>
 * </ul>
 * Immutable.
 *
 * <pre>{@code
 * RxService svc = RxService.builder(1234)
 *         .blocking(1, (call, op) -> ...)          // streams, may block
 *         .async(2, req -> CompletableFuture.completedFuture(reply))   // event loop, must not block
 *         .build();
 * RxService echo = RxService.builder(147).wholeStream(call -> call.output().write(call.input().readAllBytes()))
 *         .build();
 * }</pre>
 */
public final class RxService {
    private final int serviceId;
    private final SecurityClass securityClass;
    private final Map<Integer, Route> routes;
    /** The whole-stream handler, or null for opcode dispatch. */
    private final RxCallHandler whole;
    /** Request bytes the router sees (whole-stream with a router only). */
    private final int prefixBytes;
    /** The whole-stream router, or null. */
    private final RxCallRouter router;

    /** What serves one opcode: exactly one of the three handlers is set. */
    record Route(RxOpcodeHandler blocking, RxAsyncHandler async, RxStreamHandler stream) {
    }

    private RxService(Builder b) {
        this.serviceId = b.serviceId;
        this.securityClass = b.securityClass;
        this.routes = Collections.unmodifiableMap(new TreeMap<>(b.routes));
        this.whole = b.whole;
        this.prefixBytes = b.prefixBytes;
        this.router = b.router;
    }

    /**
     * @param serviceId the service id clients connect to, 1..65535
     * @return a builder for a service with rxnull security and no opcodes yet
     * @throws IllegalArgumentException if serviceId is out of range
     */
    public static Builder builder(int serviceId) {
        if (serviceId < 1 || serviceId > 0xFFFF) {
            throw new IllegalArgumentException("serviceId must be 1..65535: " + serviceId);
        }
        return new Builder(serviceId);
    }

    /** @return the service id, 1..65535 */
    public int serviceId() {
        return serviceId;
    }

    /** @return the security class callers must use (rxnull unless the builder chose another) */
    public SecurityClass securityClass() {
        return securityClass;
    }

    /** @return the whole-stream handler, or null for an opcode-dispatched service */
    RxCallHandler wholeStream() {
        return whole;
    }

    /** @return request bytes the whole-stream router sees (meaningful only with a router) */
    int prefixBytes() {
        return prefixBytes;
    }

    /** @return the whole-stream router, or null */
    RxCallRouter router() {
        return router;
    }

    /** @return the opcodes this service serves, ascending (empty for a whole-stream service) */
    public SortedSet<Integer> opcodes() {
        return Collections.unmodifiableSortedSet(new TreeSet<>(routes.keySet()));
    }

    /**
     * @param opcode a request's opcode
     * @return its route, or null for an unknown opcode
     */
    Route route(int opcode) {
        return routes.get(opcode);
    }

    /** Builder for {@link RxService}; not thread-safe. */
    public static final class Builder {
        private final int serviceId;
        private SecurityClass securityClass = RxNullSecurityClass.INSTANCE;
        private final Map<Integer, Route> routes = new TreeMap<>();
        private RxCallHandler whole;
        private int prefixBytes;
        private RxCallRouter router;

        private Builder(int serviceId) {
            this.serviceId = serviceId;
        }

        /**
         * Chooses the security class callers must use (its index goes in every packet header, §1): rxnull (the
         * default) or e.g. {@code RxkadServerSecurity}, whose calls reach their handlers only once the connection is
         * authenticated (docs/security.md "In the engine").
         *
         * @param sc the security class
         * @return this
         */
        public Builder securityClass(SecurityClass sc) {
            this.securityClass = Objects.requireNonNull(sc, "securityClass");
            return this;
        }

        /**
         * Serves {@code opcode} with a blocking handler on the worker pool.
         *
         * @param opcode the opcode (any int)
         * @param handler the handler
         * @return this
         * @throws IllegalStateException if the opcode already has a handler
         */
        public Builder blocking(int opcode, RxOpcodeHandler handler) {
            return add(opcode, new Route(Objects.requireNonNull(handler, "handler"), null, null));
        }

        /**
         * Serves {@code opcode} with a non-blocking handler on the event loop.
         *
         * @param opcode the opcode (any int)
         * @param handler the handler; must not block
         * @return this
         * @throws IllegalStateException if the opcode already has a handler
         */
        public Builder async(int opcode, RxAsyncHandler handler) {
            return add(opcode, new Route(null, Objects.requireNonNull(handler, "handler"), null));
        }

        /**
         * Serves {@code opcode} with a non-blocking streaming handler on the event loop: it receives and sends the
         * call's data through {@link RxAsyncStreams} (bulk data without a thread per call, with flow control).
         *
         * @param opcode the opcode (any int)
         * @param handler the handler; must not block
         * @return this
         * @throws IllegalStateException if the opcode already has a handler
         */
        public Builder stream(int opcode, RxStreamHandler handler) {
            return add(opcode, new Route(null, null, Objects.requireNonNull(handler, "handler")));
        }

        /**
         * Makes this a whole-stream service: {@code handler} gets each call's whole request stream on the worker
         * pool, with no opcode dispatch. Each service's blocking handlers use at most its share of the workers,
         * queueing and busy aborts as {@link RxEndpoint#registerService(RxService)} says.
         *
         * @param handler the blocking handler
         * @return this
         * @throws IllegalStateException if opcodes or another whole-stream handler were given
         */
        public Builder wholeStream(RxCallHandler handler) {
            Objects.requireNonNull(handler, "handler");
            if (whole != null || !routes.isEmpty()) {
                throw new IllegalStateException("a service is either whole-stream (once) or dispatched by opcode");
            }
            this.whole = handler;
            return this;
        }

        /**
         * Makes this a whole-stream service whose small calls may be served on the event loop: for each call,
         * {@code router} sees the request's first {@code prefixBytes} (or the whole request when shorter) on the
         * loop and picks an {@link RxAsyncHandler} (the whole request is gathered, the handler runs on the loop, no
         * thread hand-off) or null for {@code handler} on the worker pool with the request stream. rxperf's server
         * answers small rpc calls this way.
         *
         * @param handler the blocking handler, for the calls the router does not take
         * @param prefixBytes request bytes the router sees, 4..65536
         * @param router the per-call choice, run on the event loop (see {@link RxCallRouter})
         * @return this
         * @throws IllegalArgumentException if prefixBytes is out of range
         * @throws IllegalStateException if opcodes or another whole-stream handler were given
         */
        public Builder wholeStream(RxCallHandler handler, int prefixBytes, RxCallRouter router) {
            Objects.requireNonNull(router, "router");
            if (prefixBytes < 4 || prefixBytes > 65536) {
                throw new IllegalArgumentException("prefixBytes must be 4..65536: " + prefixBytes);
            }
            wholeStream(handler);
            this.prefixBytes = prefixBytes;
            this.router = router;
            return this;
        }

        private Builder add(int opcode, Route r) {
            if (whole != null) {
                throw new IllegalStateException("a whole-stream service takes no opcodes");
            }
            if (routes.putIfAbsent(opcode, r) != null) {
                throw new IllegalStateException("opcode " + opcode + " already has a handler");
            }
            return this;
        }

        /** @return the service */
        public RxService build() {
            return new RxService(this);
        }
    }
}
