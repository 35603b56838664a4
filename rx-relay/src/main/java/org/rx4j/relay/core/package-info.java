// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

/**
 * The relay's sans-I/O core: the impairment pipeline (MTU cap, loss, Gilbert-Elliott loss, duplication, rate limit with a drop-tail queue, delay, jitter, reordering) driven by the caller's clock, and its counters.
 */
package org.rx4j.relay.core;
