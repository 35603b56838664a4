// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

/**
 * What the engine counts and logs, the lowest of its rooms: packet and byte counters of a connection, a peer or the
 * endpoint ({@code RxCounters}, one slot per {@code org.rx4j.counters.RxCounter}, the security-class work's
 * counts among them) and of one call ({@code CallCounters}), and the TRACE log of packet decisions
 * ({@code PacketTrace}; docs/embedding.md "Packet traces"). Uses no other engine room. Internal: types are public only for the engine's other rooms and rpc's
 * statistics reader.
 */
package org.rx4j.engine.telemetry;
