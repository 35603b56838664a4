// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

/**
 * One Rx call and its parts (rx-wire-facts.md §3, §5, §6, §8): {@code Call} owns its state machine
 * ({@code CallLifecycle}), send side ({@code CallSender}, {@code PacketCutter}, {@code DataDatagrams},
 * {@code AckIntake}, {@code RecoveryProbes}), receive side ({@code CallReceiver}, {@code ReceiveQueue},
 * {@code AckScheduler}), timers ({@code CallTimers}) and inbound dispatch ({@code CallInbound}); it talks to its
 * owner only through the {@code CallContext} its connection passes down and raises events through
 * {@code CallEvents} to the application's {@code CallListener}. Uses the rooms below it and the cc, recovery and
 * pmtu algorithms, never the connection room (docs/engine.md "Packages"). Internal: public for the rooms above it,
 * the transport and rpc.
 */
package org.rx4j.engine.call;
