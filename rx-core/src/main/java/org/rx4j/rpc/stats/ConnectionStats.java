// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc.stats;

import java.net.InetSocketAddress;
import org.rx4j.rpc.RxConnectionId;

/**
 * One connection of an endpoint (rxdebug's GETCONN view; rx-wire-facts.md §1, §7, §9), as a snapshot.
 *
 * @param id epoch, cid, service id and security index
 * @param client true when this endpoint opened the connection
 * @param peer the remote address
 * @param activeCalls calls on its channels that have not ended, 0..4
 * @param waitingCalls client calls waiting for a free channel
 * @param counters its packet, byte and call counters
 */
public record ConnectionStats(RxConnectionId id, boolean client, InetSocketAddress peer, int activeCalls,
                              int waitingCalls, CounterStats counters) {
}
