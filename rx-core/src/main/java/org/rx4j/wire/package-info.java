// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

/**
 * Internal: the Rx wire codec: packet headers, bodies, jumbograms, ACK trailers, debug packets and abort codes, as
 * bytes and values with no state (rx-wire-facts.md). Depends on no other rx4j package. Not exported by the module.
 */
package org.rx4j.wire;
