// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.security;

import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The server's table of security classes by (service id, security index) (rx-wire-facts.md §7): a new
 * server connection is created only for a registered pair; an unregistered one gets a raw ABORT -2
 * (RX_INVALID_OPERATION, §2). The engine looks a class up once per new connection and keeps it in the
 * connection's security state.
 *
 * <p>Thread-safe: services may be registered while event loops look classes up.
 */
public final class SecurityClassRegistry {
    private final ConcurrentHashMap<Integer, SecurityClass> classes = new ConcurrentHashMap<>();

    /** Creates an empty table. */
    public SecurityClassRegistry() {
    }

    /**
     * Registers {@code securityClass} for {@code serviceId} at its own {@link SecurityClass#securityIndex()}.
     * A service accepting rxnull clients registers {@link RxNullSecurityClass#INSTANCE} (index 0).
     *
     * @param serviceId the service, 1..65535 (0 is used by DEBUG/VERSION packets, never by calls)
     * @param securityClass the class; its index must be 0..255
     * @throws IllegalArgumentException if serviceId or the class's index is out of range
     * @throws IllegalStateException if the pair is already registered
     */
    public void register(int serviceId, SecurityClass securityClass) {
        Objects.requireNonNull(securityClass, "securityClass");
        int key = key(serviceId, securityClass.securityIndex());
        if (classes.putIfAbsent(key, securityClass) != null) {
            throw new IllegalStateException("service " + serviceId + " already has security index "
                    + securityClass.securityIndex());
        }
    }

    /**
     * Removes a registration; connections created earlier keep their class.
     *
     * @param serviceId the service, 1..65535
     * @param securityIndex the index, 0..255
     * @return the removed class, or null if none was registered
     * @throws IllegalArgumentException if serviceId or securityIndex is out of range
     */
    public SecurityClass unregister(int serviceId, int securityIndex) {
        return classes.remove(key(serviceId, securityIndex));
    }

    /**
     * Finds the class for a packet's (serviceId, securityIndex). Never throws: header values are
     * untrusted, and out-of-range ones simply find nothing.
     *
     * @param serviceId the header's service id
     * @param securityIndex the header's security index
     * @return the class, or null when the pair is not registered (answer with a raw ABORT -2)
     */
    public SecurityClass find(int serviceId, int securityIndex) {
        if (!inRange(serviceId, securityIndex)) {
            return null;
        }
        return classes.get((serviceId << 8) | securityIndex);
    }

    private static boolean inRange(int serviceId, int securityIndex) {
        return serviceId >= 1 && serviceId <= 0xFFFF && (securityIndex & ~0xFF) == 0;
    }

    private static int key(int serviceId, int securityIndex) {
        if (!inRange(serviceId, securityIndex)) {
            throw new IllegalArgumentException("need serviceId 1..65535 and securityIndex 0..255: "
                    + serviceId + ", " + securityIndex);
        }
        return (serviceId << 8) | securityIndex;
    }
}
