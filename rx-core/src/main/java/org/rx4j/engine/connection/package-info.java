// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

/**
 * Rx connections and the tables that hold them (rx-wire-facts.md §1, §6, §7): {@code Connection} (channels, call
 * numbers, serials, the FIFO of calls waiting for a channel), the {@code CallContext} it hands each call
 * ({@code ConnectionCallContext}), what it needs from the engine ({@code ConnectionContext}), the connection and
 * peer tables ({@code ConnectionTable}, with {@code LongIndex}) and the opening of client connections
 * ({@code ClientConnections}). Uses the call room and those below it. Internal: public for the rooms above it, the
 * transport and rpc.
 */
package org.rx4j.engine.connection;
