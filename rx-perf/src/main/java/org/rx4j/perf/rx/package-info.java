// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

/**
 * The adapter that runs rxperf's transport contract ({@code org.rx4j.perf.transport}) on rx4j's public RPC API:
 * flags to {@link org.rx4j.config.RxConfig}, rxperf calls to {@link org.rx4j.rpc.RxCall} streams, stats for
 * {@code -D}. Found through {@link java.util.ServiceLoader}.
 */
package org.rx4j.perf.rx;
