// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

/**
 * Internal: what every rpc package shares: an endpoint's runtime ({@code EndpointRuntime}: transport, clock,
 * executors, limits), the interceptor and log hooks of a call ({@code CallHooks}), handler failures
 * ({@code HandlerFailures}) and {@code ApiAccess}, the one way to the package-private members of the public API
 * types. Not exported; public for the other rpc packages.
 */
package org.rx4j.rpc.runtime;
