// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

/**
 * The connectionless queries (rx-wire-facts.md §8, §9, §13): VERSION and DEBUG answered by
 * {@code ConnectionlessResponder}, rxdebug's answers from the engine's tables ({@code EngineDebugResponder} through
 * the {@code EngineView} an engine shows of itself) and the endpoint-wide RTT totals ({@code RttTotals}). Uses the
 * connection room and those below it. Internal: public for the engine, the transport and rpc.
 */
package org.rx4j.engine.debug;
