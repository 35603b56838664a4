// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

/**
 * Internal: what {@code RxConnectionPool} and {@code RxChannel} are built from: pool members
 * ({@code PoolMembers}), a channel's addresses ({@code ChannelAddresses}), retry pauses and budgets
 * ({@code RetryPause}, {@code RetryBudgetLedger}), the ends of a caller's calls ({@code CallerEnds}) and the
 * inheritance of a caller's context by a call ({@code InheritedContext}). Not exported; public for the other rpc
 * packages.
 */
package org.rx4j.rpc.pool;
