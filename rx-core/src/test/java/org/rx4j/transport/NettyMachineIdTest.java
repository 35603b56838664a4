// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * rx4j gives Netty a random machine id (an EUI-64 with colons, locally administered) unless the application set one,
 * so Netty never looks up hardware addresses (and warns without a NIC; docs/transport.md "Socket setup").
 */
class NettyMachineIdTest {
    @Test
    void setsARandomIdOnlyWhenNoneIsSet() {
        String before = System.getProperty(NettyMachineId.PROPERTY);
        try {
            System.clearProperty(NettyMachineId.PROPERTY);
            NettyMachineId.ensure();
            String id = System.getProperty(NettyMachineId.PROPERTY);
            assertTrue(id.matches("([0-9a-f]{2}:){7}[0-9a-f]{2}"), id);
            int first = Integer.parseInt(id.substring(0, 2), 16);
            assertEquals(0x02, first & 0x03, "locally administered, unicast: " + id);
            System.setProperty(NettyMachineId.PROPERTY, "00:11:22:33:44:55");
            NettyMachineId.ensure();
            assertEquals("00:11:22:33:44:55", System.getProperty(NettyMachineId.PROPERTY), "the application's is kept");
        } finally {
            if (before == null) {
                System.clearProperty(NettyMachineId.PROPERTY);
            } else {
                System.setProperty(NettyMachineId.PROPERTY, before);
            }
        }
    }
}
