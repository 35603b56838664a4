// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

/**
 * The Netty UDP transport: one socket and one event loop per endpoint, and the pipeline that connects the
 * socket to the sans-I/O {@link org.rx4j.engine.RxEngine} (docs/transport.md). Inbound,
 * {@link org.rx4j.transport.DatagramDecoder} turns datagrams into packets (or counts and drops them) and
 * {@link org.rx4j.transport.EngineHandler} feeds them to the engine, which writes through
 * {@link org.rx4j.transport.DatagramEncoder}. {@link org.rx4j.transport.RxTransport} binds, hands work to the
 * loop and closes; it never hands the loop-confined engine out. Time comes from one clock per transport: the
 * event loop's Netty ticker unless the endpoint injects one. Depends on the engine (its facade and the output
 * room's {@link org.rx4j.engine.output.PacketSink}), config and wire; never on rpc.
 * Internal: not exported by the module org.rx4j.core.
 */
package org.rx4j.transport;
