// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

/**
 * Internal: the client side of calls behind {@code RxConnection}: whole-message asynchronous calls
 * ({@code AsyncClientCall}), the reasons a client call ended ({@code ClientEndReasons}), and the probe that tells an
 * unreachable server from a slow one ({@code UnreachableProbe}, {@code ProbeSocket}, {@code ProbeQuietTimes},
 * {@code PeerUnreachable}). Not exported; types are public only for the other rpc packages.
 */
package org.rx4j.rpc.client;
