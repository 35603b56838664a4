// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc;

import java.util.Objects;

/**
 * Names the procedures of the services an endpoint serves and calls, for interceptors and call logs
 * ({@link RxCallInfo#procName()}), e.g. rx-gen's generated {@code XxOpcodes.procNames(serviceId)} (docs/rxgen.md,
 * "Proc names"). Registered with {@link RxEndpoint.Builder#procNames}; called on the event loop or the calling
 * thread: must not block.
 */
@FunctionalInterface
public interface RxProcNames {
    /**
     * @param serviceId the call's service id, 1..65535
     * @param opcode the request's opcode (rxgen's first 4 bytes)
     * @return the procedure's name, or null when unknown
     */
    String name(int serviceId, int opcode);

    /**
     * Joins two namings, e.g. the generated names of two services one endpoint serves or calls:
     * {@code VlOpcodes.procNames(52).orElse(PrOpcodes.procNames(73))}.
     *
     * @param other asked when this naming returns null
     * @return a naming that asks this one first, then {@code other}
     * @throws NullPointerException if other is null
     */
    default RxProcNames orElse(RxProcNames other) {
        Objects.requireNonNull(other, "other");
        return (serviceId, opcode) -> {
            String name = name(serviceId, opcode);
            return name != null ? name : other.name(serviceId, opcode);
        };
    }
}
