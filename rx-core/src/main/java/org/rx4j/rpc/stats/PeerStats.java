// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc.stats;

import java.net.InetSocketAddress;

/**
 * What an endpoint knows about one remote host:port, shared by all connections to it (rxdebug's GETPEER
 * view; rx-wire-facts.md §3, §8, §9), as a snapshot.
 *
 * @param address the peer's UDP address
 * @param connections connections to or from it now
 * @param maxMtu largest packet it accepts (ACK trailer maxMTU), bytes
 * @param ifMtu its interface MTU (trailer ifMTU), bytes
 * @param maxDgramPackets most jumbogram sub-packets sent to it, 1..46
 * @param rwind the receive window it last advertised, packets (0 before any ACK trailer)
 * @param bytesSent bytes sent to it
 * @param bytesReceived bytes received from it
 * @param rtt its round-trip time
 * @param resends DATA packets resent to it
 * @param congestion the congestion controller toward it ({@link CongestionStats#NONE} before a sending call)
 */
public record PeerStats(InetSocketAddress address, int connections, int maxMtu, int ifMtu, int maxDgramPackets,
                        int rwind, long bytesSent, long bytesReceived, RttStats rtt, long resends,
                        CongestionStats congestion) {
}
