// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

/**
 * Public SPI: Rx security classes ({@link org.rx4j.security.SecurityClass}: rxnull here, rxkad in
 * {@link org.rx4j.security.rxkad}), their per-connection state, the CHALLENGE/RESPONSE exchange and the caller's
 * identity (rx-wire-facts.md §7, §11, §14).
 */
package org.rx4j.security;
