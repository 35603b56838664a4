// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.security;

import java.util.Objects;

/**
 * Who a call's client proved to be: what a server's security class learned from the connection's RESPONSE (for
 * rxkad, the ticket's client name, instance and cell, the level the connection runs at and the ticket's end). A
 * service handler reads it from its call ({@code RxCall.identity()}) to decide what the caller may do. A value type:
 * immutable.
 *
 * @param principal the client's name (rxkad: the ticket's name, e.g. {@code "admin"}); never empty
 * @param instance the client's instance (e.g. {@code "admin"} in {@code admin.admin}); may be empty
 * @param cell the client's cell or realm as the ticket names it; empty for the server's own cell
 * @param securityIndex the security class that proved it (2 = rxkad)
 * @param level the class's protection level on the connection (rxkad: 0 clear, 1 auth, 2 crypt)
 * @param expiresAtEpochSecond when the credential ends, seconds since 1970 ({@link Long#MAX_VALUE} for never)
 */
public record CallerIdentity(String principal, String instance, String cell, int securityIndex, int level,
                             long expiresAtEpochSecond) {
    /**
     * @throws NullPointerException if a name is null
     */
    public CallerIdentity {
        Objects.requireNonNull(principal, "principal");
        Objects.requireNonNull(instance, "instance");
        Objects.requireNonNull(cell, "cell");
    }

    /** @return {@code name[.instance]@cell}, as OpenAFS prints a principal */
    @Override
    public String toString() {
        return principal + (instance.isEmpty() ? "" : "." + instance) + "@" + cell + " level=" + level;
    }
}
