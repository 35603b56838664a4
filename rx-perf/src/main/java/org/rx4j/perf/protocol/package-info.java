// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

/**
 * The rxperf protocol on plain byte streams (rx-wire-facts.md §10): the parameter block, the server handler, the
 * per-call client workload, FILE word lists and rx4j's k mod 251 payload pattern. Independent of any transport.
 */
package org.rx4j.perf.protocol;
