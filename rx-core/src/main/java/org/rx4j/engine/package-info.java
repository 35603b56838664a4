// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

/**
 * The sans-I/O Rx protocol engine (design.md "engine", docs/engine.md "Classes"): decoded packets and timer ticks
 * in, packets to a {@link org.rx4j.engine.output.PacketSink} and events to {@link org.rx4j.engine.call.CallListener}s out.
 * Ownership runs one way — {@link org.rx4j.engine.RxEngine} → {@link org.rx4j.engine.connection.ConnectionTable} →
 * {@link org.rx4j.engine.connection.Connection} → {@link org.rx4j.engine.call.Call} → the call's parts — and what flows back goes
 * through the narrow interfaces each owner passes down ({@code ConnectionContext}, {@code CallContext},
 * {@code CallEvents}). No threads, sockets or clocks: every entry point takes {@code now} in nanoseconds.
 * Subpackages: {@link org.rx4j.engine.cc} (congestion control), {@link org.rx4j.engine.recovery} (RTT, loss
 * detection and recovery) and {@link org.rx4j.engine.pmtu} (path-MTU discovery).
 */
package org.rx4j.engine;

import org.rx4j.engine.call.CallContext;
import org.rx4j.engine.call.CallEvents;
import org.rx4j.engine.connection.ConnectionContext;
