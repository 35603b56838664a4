// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.wire;

/**
 * Bits of the header's flags byte (offset 21), see rx-wire-facts.md §1.
 */
public final class PacketFlags {
    /** Sent by the connection's client side; selects server-side connection lookup (§7). */
    public static final int CLIENT_INITIATED = 0x01;
    /** The sender asks for an immediate ACK (reason REQUESTED, or PING_RESPONSE for a PING). */
    public static final int REQUEST_ACK = 0x02;
    /** Last DATA packet of this direction of the call. */
    public static final int LAST_PACKET = 0x04;
    /** Every DATA packet of a transmit burst but the last one. */
    public static final int MORE_PACKETS = 0x08;
    /** On DATA: another sub-packet follows in this jumbogram (§4). */
    public static final int JUMBO_PACKET = 0x20;
    /** On ACK: the sender supports slow start (always set by OpenAFS and the kernel). Same bit as JUMBO_PACKET. */
    public static final int SLOW_START_OK = 0x20;

    private PacketFlags() {
    }

    /**
     * Tests a flag bit.
     *
     * @param flags the flags byte, 0..255
     * @param bit one of the constants of this class
     * @return true when every bit of {@code bit} is set
     */
    public static boolean has(int flags, int bit) {
        return (flags & bit) == bit;
    }
}
