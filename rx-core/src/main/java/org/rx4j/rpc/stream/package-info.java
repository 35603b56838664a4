// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

/**
 * Internal: a call as the application's threads see it: the bridge between the engine's loop and blocking
 * streams ({@code CallStreams}, {@code CallOutputStream}), whole messages ({@code MessageBuffer},
 * {@code MessageWriter}), recycled receive chunks ({@code ChunkRecycler}) and the endpoint's open calls
 * ({@code CallTracker}). Not exported; public for the other rpc packages.
 */
package org.rx4j.rpc.stream;
