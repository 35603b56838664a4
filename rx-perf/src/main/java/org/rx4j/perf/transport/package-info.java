// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

/**
 * The small transport contract rxperf runs on: client and server endpoints, connections and calls as byte streams.
 * rxperf's protocol and CLI depend only on these interfaces; an adapter over rx4j's RPC API implements them and is
 * found through {@link java.util.ServiceLoader} ({@link org.rx4j.perf.transport.PerfTransportFactory}).
 */
package org.rx4j.perf.transport;
