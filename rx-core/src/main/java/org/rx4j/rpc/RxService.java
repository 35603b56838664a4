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
 * A server-side service that follows rxgen's convention (rx-wire-facts.md §6): the first 4 bytes of each
 * request are a big-endian opcode that picks the operation. Maps opcodes to blocking handlers (worker pool)
 * or non-blocking ones (event loop); a request with any other opcode is aborted with RXGEN_OPCODE (−455),
 * and one shorter than 4 bytes with RXGEN_DECODE (−454), as rxgen's generated dispatch does. Immutable;
 * register it with {@link RxEndpoint#registerService(RxService)}.
 *
 * <pre>{@code
 * RxService svc = RxService.builder(1234)
 *         .blocking(1, (call, op) -> ...)          // streams, may block
 *         .async(2, req -> CompletableFuture.completedFuture(reply))   // event loop, must not block
 *         .build();
 * }</pre>
 */
public final class RxService {
    private final int serviceId;
    private final SecurityClass securityClass;
    private final Map<Integer, Route> routes;

    /** What serves one opcode: exactly one of the two handlers is set. */
    record Route(RxOpcodeHandler blocking, RxAsyncHandler async) {
    }

    private RxService(Builder b) {
        this.serviceId = b.serviceId;
        this.securityClass = b.securityClass;
        this.routes = Collections.unmodifiableMap(new TreeMap<>(b.routes));
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

    /** @return the opcodes this service serves, ascending */
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
            return add(opcode, new Route(Objects.requireNonNull(handler, "handler"), null));
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
            return add(opcode, new Route(null, Objects.requireNonNull(handler, "handler")));
        }

        private Builder add(int opcode, Route r) {
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
