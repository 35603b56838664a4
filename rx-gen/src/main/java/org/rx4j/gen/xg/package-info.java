// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

/**
 * The {@code .xg} language: lexer, recursive-descent parser and the syntax tree of constants, types and procs (docs/rxgen.md).
 */
package org.rx4j.gen.xg;
