// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

/**
 * Public API: call targets made of more than one Rx connection, and the repeating of failed calls. A
 * {@link org.rx4j.rpc.channel.RxConnectionPool} holds connections to one server and service that grow with the calls
 * ({@link org.rx4j.rpc.channel.RxPoolConfig}); an {@link org.rx4j.rpc.channel.RxChannel} spreads calls over several
 * servers of one service, one pool each, and ejects a server that keeps failing
 * ({@link org.rx4j.rpc.channel.RxChannelConfig}). Both repeat the typed calls an
 * {@link org.rx4j.rpc.channel.RxRetryPolicy} marks idempotent after a connection-level failure; a channel's repeats
 * stay within its {@link org.rx4j.rpc.channel.RxRetryBudget}. Both are {@link org.rx4j.rpc.RxCallTarget}s, as a
 * single {@link org.rx4j.rpc.RxConnection} is. See docs/embedding.md "Pools" and "Channels". Their implementation is
 * in the unexported {@code org.rx4j.rpc.pool}; they reach the package-private members of {@code org.rx4j.rpc} through
 * {@code org.rx4j.rpc.runtime.ApiAccess}.
 */
package org.rx4j.rpc.channel;
