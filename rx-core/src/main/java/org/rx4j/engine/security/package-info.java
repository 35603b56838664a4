// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

/**
 * One connection's security class as the engine applies it ({@code ConnectionSecurity}: preparing and checking
 * DATA bodies, parking DATA until the handshake ends; docs/security.md "In the engine") and the byte budget of
 * packets kept for unproven or unauthenticated sources ({@code HeldBytes}; docs/robustness.md "Rule: a byte budget
 * for what unproven sources leave"). Uses the peer room. Internal.
 */
package org.rx4j.engine.security;
