// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

/**
 * Internal: the server side of calls behind {@code RxService}: the dispatch of a new call to its service
 * ({@code ServiceDispatch}), reading the opcode or a routing prefix ({@code OpcodeReader}, {@code PrefixRouter},
 * {@code RequestPrefix}), blocking and asynchronous handlers ({@code BlockingServerCall}, {@code AsyncServerCall})
 * and the worker pool share of each service ({@code WorkerShare}). Not exported; public for the other rpc packages.
 */
package org.rx4j.rpc.server;
