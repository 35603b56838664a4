// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

/**
 * The rxperf command line (picocli): {@link org.rx4j.perf.RxPerf} with the {@code server}, {@code client} and
 * {@code loopback} subcommands, OpenAFS rxperf's flags (rx-wire-facts.md §10) plus rx4j's long-only extras,
 * one-line errors and exit codes 0/1/2. Reference: docs/rxperf.md.
 */
package org.rx4j.perf;
