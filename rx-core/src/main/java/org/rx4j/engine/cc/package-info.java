// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

/**
 * Congestion control for the sans-I/O engine: the {@link org.rx4j.engine.cc.CongestionController} interface
 * with NewReno, fixed-window and BBR implementations (the BBR model and delivery-rate estimate of one path, shared
 * by its calls: {@link org.rx4j.engine.cc.PathModel}), and the jumbogram sizer. Windows are counted in packets.
 * Pure state, no clock, no threads, no Netty. See rx-wire-facts.md §4 and §8, and draft-ietf-ccwg-bbr.
 */
package org.rx4j.engine.cc;
