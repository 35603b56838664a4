// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine.call;

import java.net.InetSocketAddress;
import org.rx4j.security.CallerIdentity;

/**
 * Who is at the other end of a call, for the application ({@link Call#origin()}): the peer's address and the
 * identity of the call's connection as it appears in every packet header (rx-wire-facts.md §1, §7). Immutable: a
 * snapshot taken when asked. The engine's own work on the connection goes through its tables, never through this
 * value.
 *
 * @param peer the peer's UDP address
 * @param epoch the client endpoint's epoch, as on the wire
 * @param cid the connection id, channel bits clear (unsigned 32-bit)
 * @param serviceId the service id, 0..65535
 * @param securityIndex the security class index, 0..255 (0 = rxnull)
 * @param identity who the caller proved to be on a server connection ({@code PacketSecurity.identity}: principal,
 *     instance, cell, level, expiry), or null (rxnull, or the client side)
 */
public record CallOrigin(InetSocketAddress peer, int epoch, int cid, int serviceId, int securityIndex,
                         CallerIdentity identity) {
    /** @return e.g. {@code peer=/10.0.0.1:7001 epoch=8f2a01c3 cid=1c0 svc=147 sec=0} (hex for epoch and cid) */
    @Override
    public String toString() {
        return "peer=" + peer + " epoch=" + Integer.toUnsignedString(epoch, 16) + " cid="
                + Integer.toUnsignedString(cid, 16) + " svc=" + serviceId + " sec=" + securityIndex;
    }
}
