// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.transport;

import java.security.SecureRandom;
import java.util.HexFormat;

/**
 * Gives Netty a machine id before its first channel is made, unless the application set one: Netty builds each
 * channel's id ({@code DefaultChannelId}) from a machine id that it otherwise looks up from the network interfaces'
 * hardware addresses, and in a network namespace or container without a NIC that look-up fails with a WARN from
 * {@code MacAddressUtil} ("Failed to find a usable hardware address ... using random bytes") in every process that
 * opens an endpoint. rx4j never uses channel ids; random bytes are what Netty falls back to anyway, and setting them
 * first skips the look-up and its WARN (Netty reads the {@code io.netty.machineId} system property, an EUI-64 with
 * colons). An {@code io.netty.machineId} the application set is left alone.
 */
final class NettyMachineId {
    /** Netty's system property for the machine id. */
    static final String PROPERTY = "io.netty.machineId";

    private NettyMachineId() {
    }

    /** Sets {@link #PROPERTY} to 8 random bytes ({@code 01:23:...}) when it is not set. Idempotent, thread-safe. */
    static synchronized void ensure() {
        if (System.getProperty(PROPERTY) != null) {
            return;
        }
        byte[] id = new byte[8];
        new SecureRandom().nextBytes(id);
        id[0] |= 0x02; // a locally administered address, as a random MAC should be (IEEE 802)
        id[0] &= (byte) ~0x01; // unicast
        System.setProperty(PROPERTY, HexFormat.ofDelimiter(":").formatHex(id));
    }
}
