// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

/**
 * Who gets into a server (docs/robustness.md "Rule: limits" and "Rule: stateless reachability challenge"): the
 * connection and peer limits ({@code ConnectionLimits}), the stateless reachability challenge of new sources
 * ({@code ReachChallenger}, {@code ReachChallenges}) and the engine's side of a security class's CHALLENGE /
 * RESPONSE exchange ({@code SecurityHandshake}; rx-wire-facts.md §7). Uses the connection room and those below it.
 * Internal.
 */
package org.rx4j.engine.admission;
