// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

/**
 * AFS files from Java: paths under {@code /afs/CELL} resolved through volume mount points, file status with a
 * callback-backed cache, streaming reads and writes, directories (the AFS directory format) and the callback
 * service the fileserver calls; see docs/afs-files.md.
 */
package org.rx4j.afs.files;
