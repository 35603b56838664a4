// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

/**
 * rxkad's CHALLENGE and RESPONSE payloads and the tickets a RESPONSE carries (internal: the module does not export
 * this package): v4-style tickets, and opening a ticket of either form with the server's keys (docs/security.md "Handshake",
 * "Tickets").
 */
package org.rx4j.security.rxkad.handshake;
