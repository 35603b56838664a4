// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

/**
 * Public API: endpoints ({@link org.rx4j.rpc.RxEndpoint}), connections, pools and channels, calls as streams or
 * whole messages, rxgen-style services, call options and contexts, errors ({@link org.rx4j.rpc.errors.RxException},
 * {@link org.rx4j.rpc.errors.RxCodes}); statistics snapshots are in {@link org.rx4j.rpc.stats}. See docs/embedding.md.
 * The implementation lives in the unexported sub-packages client, server, stream, pool, metrics and runtime; it
 * reaches the package-private members of these types only through {@code ApiBridge}.
 */
package org.rx4j.rpc;
