// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

/**
 * The impairment relay: a UDP relay on Netty between a listen and a target address with per-direction impairments ({@link org.rx4j.relay.ImpairmentRelay}; docs/relay.md).
 */
package org.rx4j.relay;
