// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

/**
 * rx-gen: rxgen for Java. The entry points that turn an rxgen {@code .xg} interface file (and com_err {@code .et} tables) into Java 17 sources; see docs/rxgen.md.
 */
package org.rx4j.gen;
