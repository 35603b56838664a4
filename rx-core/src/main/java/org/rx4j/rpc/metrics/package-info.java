// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

/**
 * Internal: the measurements behind {@code org.rx4j.rpc.stats}: per-call and per-procedure meters
 * ({@code CallMeter}, {@code CallMetrics}, {@code ProcedureMeter}, {@code LatencyHistogram}), the reader that turns
 * engine counters into snapshots ({@code StatsReader}) and the endpoint's MXBean ({@code EndpointMXBean}). Not
 * exported; public for the other rpc packages.
 */
package org.rx4j.rpc.metrics;
