// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.security.packet;

/**
 * Read-only view of a connection's per-channel call numbers, implemented by the engine and read by
 * security classes (rxkad puts all four in its RESPONSE, rx-wire-facts.md §7).
 *
 * <p>Called only on the thread that owns the connection; the engine need not make it thread-safe.
 */
@FunctionalInterface
public interface ChannelCallNumbers {
    /**
     * @param channel 0..3 (cid bits 1..0)
     * @return the current callNumber on that channel (unsigned 32-bit, as on the wire); 0 = no call yet
     * @throws IndexOutOfBoundsException if channel is not 0..3
     */
    int callNumber(int channel);
}
