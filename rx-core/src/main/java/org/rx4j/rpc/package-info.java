// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

/**
 * Public API: endpoints ({@link org.rx4j.rpc.RxEndpoint}), connections, calls as streams or whole messages,
 * rxgen-style services, errors ({@link org.rx4j.rpc.RxException}, {@link org.rx4j.rpc.RxCodes}) and immutable
 * statistics snapshots. See docs/embedding.md.
 */
package org.rx4j.rpc;
