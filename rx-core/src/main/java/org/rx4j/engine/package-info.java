// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

/**
 * The sans-I/O Rx protocol engine (design.md "engine", docs/engine.md "Classes" and "Packages"): decoded packets and
 * timer ticks in, packets to a {@link org.rx4j.engine.output.PacketSink} and events to
 * {@link org.rx4j.engine.call.CallListener}s out. This package holds the facade ({@link org.rx4j.engine.RxEngine}),
 * the inbound demultiplexer and the server's connection admission, the services, the event and timer queues and the
 * engine's timed work; its rooms, bottom up: {@code telemetry} (counters, packet trace), {@code output} (the sink,
 * raw ABORTs), {@code peer}, {@code security} (a connection's security class), {@code call}, {@code connection},
 * {@code admission} (limits, reachability challenge, security handshake) and {@code debug} (VERSION, DEBUG,
 * rxdebug); each uses only the rooms below it (LayeringArchTest). Ownership runs one way — RxEngine →
 * ConnectionTable → Connection → Call → the call's parts — and what flows back goes through the narrow interfaces
 * each owner passes down ({@code ConnectionContext}; to a call, the fixed {@code CallEnv}, the {@code CallOwner}
 * verbs and the {@code CallEvents} bound to it). No threads, sockets
 * or clocks: every entry point takes {@code now} in nanoseconds. The algorithms live in {@link org.rx4j.engine.cc}
 * (congestion control), {@link org.rx4j.engine.recovery} (RTT, loss detection and recovery) and
 * {@link org.rx4j.engine.pmtu} (path-MTU discovery).
 */
package org.rx4j.engine;
