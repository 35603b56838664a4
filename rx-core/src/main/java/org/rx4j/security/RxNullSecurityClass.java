// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.security;

import org.rx4j.security.packet.PacketSecurityAccess;
import org.rx4j.security.packet.RxNullPackets;

/**
 * rxnull, security index 0 (rx-wire-facts.md §11): no authentication, integrity or encryption; DATA carries no
 * security header or trailer and spare 0, and no CHALLENGE is ever sent (§7). A server must register it at index 0
 * to accept rxnull clients, as rxperf does (§10). Stateless; one shared instance, thread-safe.
 */
public final class RxNullSecurityClass implements SecurityClass {
    /** The shared instance. */
    public static final RxNullSecurityClass INSTANCE = new RxNullSecurityClass();

    static {
        PacketSecurityAccess.register(RxNullSecurityClass.class, c -> RxNullPackets.INSTANCE);
    }

    private RxNullSecurityClass() {
    }

    /** @return 0 */
    @Override
    public int securityIndex() {
        return SecurityIndex.RXNULL;
    }

    /** @return {@code "rxnull"} */
    @Override
    public String name() {
        return "rxnull";
    }

    @Override
    public String toString() {
        return "rxnull";
    }
}
