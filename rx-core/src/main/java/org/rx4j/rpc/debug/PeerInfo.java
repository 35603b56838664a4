// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc.debug;

/**
 * One peer as a server lists it for GETPEER (struct rx_debugPeer, rx-wire-facts.md §9 and §13).
 *
 * @param host the peer's IPv4 address as a big-endian int (127.0.0.1 = 0x7f000001)
 * @param port the peer's UDP port, 0..65535
 * @param ifMtu the interface MTU used for the peer, bytes
 * @param natMtu the peer's natural MTU, bytes
 * @param maxMtu the largest packet the peer accepts, bytes
 * @param packetsSent distinct DATA packets sent to the peer, count
 * @param resends retransmissions to the peer, count
 * @param bytesSent bytes sent to the peer
 * @param bytesReceived bytes received from the peer
 * @param rtt the smoothed round-trip time, 1/8 ms units
 * @param rttDev the smoothed round-trip time deviation, 1/4 ms units
 * @param timeoutSec the retransmit timeout, seconds part (OpenAFS 1.8 sends 0)
 * @param timeoutUsec the retransmit timeout, microseconds part (OpenAFS 1.8 sends 0)
 */
public record PeerInfo(int host, int port, int ifMtu, int natMtu, int maxMtu, int packetsSent, int resends,
                       long bytesSent, long bytesReceived, int rtt, int rttDev, int timeoutSec, int timeoutUsec) {
}
