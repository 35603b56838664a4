// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

/**
 * Public API: a client of the Rx DEBUG and VERSION packets ({@link org.rx4j.rpc.debug.RxDebugClient}), the questions
 * OpenAFS's {@code rxdebug} asks any Rx server, and the plain values of its answers (server status, Rx statistics,
 * connections, peers). No endpoint needed: one UDP socket, one request per question (rx-wire-facts.md §9). See
 * docs/cells.md "rxdebug".
 */
package org.rx4j.rpc.debug;
