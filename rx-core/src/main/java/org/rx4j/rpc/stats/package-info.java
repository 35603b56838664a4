// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

/**
 * Public API: immutable statistics snapshots of an endpoint ({@code EndpointStats}), its connections, peers,
 * counters, congestion and RTT, per-procedure call metrics ({@code ProcedureMetrics}) and the endpoint's JMX
 * interface ({@code RxEndpointMXBean}); see docs/embedding.md. Exported; snapshots are values, safe on any thread.
 */
package org.rx4j.rpc.stats;
