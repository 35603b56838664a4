// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

/**
 * The {@code rx-gen:generate} Maven goal: generates Java sources from {@code src/main/xg} in the generate-sources phase.
 */
package org.rx4j.gen.maven;
