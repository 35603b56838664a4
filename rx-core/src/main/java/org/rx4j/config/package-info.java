// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

/**
 * Public API: the endpoint's configuration. {@link org.rx4j.config.RxConfig} holds every Rx tunable (OpenAFS 1.8
 * names and defaults, rx-wire-facts.md §5, §8) in one record per concern ({@link org.rx4j.config.Windows},
 * {@link org.rx4j.config.Limits}, ...), {@link org.rx4j.config.CongestionControl} picks the congestion
 * controller and {@link org.rx4j.config.TransportKind} the socket implementation. Immutable values; no I/O.
 */
package org.rx4j.config;
