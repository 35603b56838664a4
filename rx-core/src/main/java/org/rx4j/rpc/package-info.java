// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

/**
 * Public API, the types a program touches first: endpoints ({@link org.rx4j.rpc.RxEndpoint}), connections, calls as
 * streams or whole messages, rxgen-style services and their handlers, call options and contexts, interceptors. Pools
 * and channels (and their retry policy and budget) are in {@link org.rx4j.rpc.channel}, errors
 * ({@link org.rx4j.rpc.errors.RxException}, {@link org.rx4j.rpc.errors.RxCodes}) in {@link org.rx4j.rpc.errors},
 * statistics snapshots in {@link org.rx4j.rpc.stats}. See docs/embedding.md. The implementation lives in the
 * unexported sub-packages client, server, stream, pool, metrics and runtime; it, and {@code org.rx4j.rpc.channel},
 * reach the package-private members of these types only through {@code ApiBridge}.
 */
package org.rx4j.rpc;
