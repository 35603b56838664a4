// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

/**
 * The multi-server client for ubik-replicated database services (VL, PT, BOS): which server is asked, and when a call moves on; see docs/cells.md.
 */
package org.rx4j.afs.ubik;
