// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

/**
 * The com_err {@code .et} error-table reader: table name to code base, codes, names and messages (docs/rxgen.md).
 */
package org.rx4j.gen.et;
