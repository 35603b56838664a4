// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

/**
 * Public API: Rx security classes as an application holds them ({@link org.rx4j.security.SecurityClass}: rxnull
 * here, rxkad in {@link org.rx4j.security.rxkad}), their indexes, the caller's identity, their statistics and the
 * abort a security check raises (rx-wire-facts.md §7, §11, §14). How a class protects packets is internal
 * ({@code org.rx4j.security.packet}, not exported).
 */
package org.rx4j.security;
