// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

/**
 * Binds rx4j's per-procedure call metrics to Micrometer ({@link org.rx4j.metrics.micrometer.RxMetricsBinder});
 * docs/embedding.md, "Metrics". An optional artifact: rx-core does not depend on Micrometer.
 */
package org.rx4j.metrics.micrometer;
