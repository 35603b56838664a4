// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

/**
 * The command-line programs on the library: {@code afsq} (a cell's vlserver and ptserver through the generated stubs and the cell reader) and rx4j's own {@code rxdebug}; see docs/cells.md and docs/interop.md.
 */
package org.rx4j.afs.tools;
