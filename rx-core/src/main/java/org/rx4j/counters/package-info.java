// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

/**
 * Public API: what an endpoint counts. {@link org.rx4j.counters.RxCounter} declares every counter once (its name,
 * unit, kind, scope and meaning, as Aeron declares its counters by type id and label); the engine counts into slots
 * named by these constants, and every stats snapshot ({@code org.rx4j.rpc.CounterStats}), JMX attribute and
 * {@code rxperf -D} line is derived from the same list. No state; depends on the wire codec's names only.
 */
package org.rx4j.counters;
