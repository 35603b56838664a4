// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc.debug;

import java.util.List;
import java.util.Objects;
import org.rx4j.security.SecurityStats;

/**
 * One connection as a server lists it for GETCONN or GETALLCONN (struct rx_debugConn, rx-wire-facts.md §9).
 *
 * @param host the peer's IPv4 address as a big-endian int (127.0.0.1 = 0x7f000001)
 * @param port the peer's UDP port, 0..65535
 * @param epoch the connection's epoch
 * @param cid the connection's id (channel bits 0)
 * @param serial the last serial the connection used, count
 * @param error the connection's error code, 0 if none
 * @param securityIndex the security class index, 0..255
 * @param serverConnection true for a connection the server accepted, false for one it opened
 * @param natMtu the peer's natural MTU, bytes
 * @param channels the 4 call channels, channel 0 first (copied)
 * @param security the security class's statistics (struct rx_securityObjectStats): for rxkad its level, flags,
 *     expiry and counters; {@link SecurityStats#NONE}'s zeros for rxnull
 */
public record ConnectionInfo(int host, int port, int epoch, int cid, int serial, int error, int securityIndex,
                             boolean serverConnection, int natMtu, List<Channel> channels, SecurityStats security) {
    /**
     * One call channel of the connection.
     *
     * @param callNumber the channel's current call number (unsigned 32 bits held in an int)
     * @param state the call's state: 0 not initialized, 1 precall, 2 active, 3 dally, 4 hold, 5 reset (0..255)
     * @param mode the call's mode: 1 send, 2 receive, 3 error, 4 eof (0..255)
     */
    public record Channel(int callNumber, int state, int mode) {
    }

    /** @throws NullPointerException if {@code channels} or {@code security} is null, or a channel is */
    public ConnectionInfo {
        channels = List.copyOf(channels);
        Objects.requireNonNull(security, "security");
    }
}
