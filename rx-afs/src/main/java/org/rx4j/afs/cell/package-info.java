// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

/**
 * AFS cells: the CellServDB and ThisCell file readers and DNS SRV lookups ({@code _afs3-vlserver._udp}, RFC 5864) that name a cell's database servers; see docs/cells.md.
 */
package org.rx4j.afs.cell;
