// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

/**
 * Internal (not exported by the module): the packet work of the security classes, what the engine asks of them for
 * each connection and DATA packet ({@link org.rx4j.security.packet.PacketSecurity}), their per-connection state and
 * the received header they check, rxnull's packet work, and the accessor from an exported
 * {@link org.rx4j.security.SecurityClass} handle to its packet work (docs/security.md "The security SPI";
 * rx-wire-facts.md §1, §5, §7, §11). Netty's buffers appear here and not in the exported packages.
 */
package org.rx4j.security.packet;
