// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

/**
 * What a run prints: OpenAFS's result line (with C's {@code %.4g} via {@link org.rx4j.perf.report.CFormat}), the
 * rpc latency line, {@code -D} statistics blocks, {@code --interval} progress lines and {@code --json}.
 */
package org.rx4j.perf.report;
