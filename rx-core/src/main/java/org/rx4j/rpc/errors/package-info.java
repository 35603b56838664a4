// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

/**
 * Public API: how a call fails. {@link org.rx4j.rpc.errors.RxException} is the exception of a call that ended with an
 * Rx abort code (remote or local, with a local reason), {@link org.rx4j.rpc.errors.RxCodes} holds the Rx and rxgen
 * codes (rx-wire-facts.md §6), and {@link org.rx4j.rpc.errors.RxErrorTables} the com_err tables that name
 * applications' codes in messages. See docs/errors.md.
 */
package org.rx4j.rpc.errors;
