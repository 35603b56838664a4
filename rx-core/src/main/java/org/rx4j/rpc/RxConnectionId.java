// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc;

import org.rx4j.engine.call.CallOrigin;
import org.rx4j.engine.connection.Connection;

/**
 * The identity of an Rx connection as it appears in every packet header (rx-wire-facts.md §1, §7): the
 * client's epoch, the connection id (cid with the two channel bits clear), the service id and the security
 * index. A server sees the caller's values; with the peer address they identify the caller's connection.
 *
 * @param epoch the client endpoint's epoch (bit 31 set by OpenAFS 1.8 and rx4j), as on the wire
 * @param cid the connection id, channel bits clear (unsigned 32-bit)
 * @param serviceId the service id, 1..65535
 * @param securityIndex the security class index, 0..255 (0 = rxnull)
 */
public record RxConnectionId(int epoch, int cid, int serviceId, int securityIndex) {
    /**
     * @param c an engine connection (its identity fields are final, so any thread may call this)
     * @return its identity
     */
    static RxConnectionId of(Connection c) {
        return new RxConnectionId(c.epoch(), c.cid(), c.serviceId(), c.securityIndex());
    }

    /**
     * @param o where an engine call comes from
     * @return the identity of the call's connection
     */
    static RxConnectionId of(CallOrigin o) {
        return new RxConnectionId(o.epoch(), o.cid(), o.serviceId(), o.securityIndex());
    }

    /** @return e.g. {@code epoch=8f2a01c3 cid=1c0 service=147 securityIndex=0} (hex for epoch and cid) */
    @Override
    public String toString() {
        return "epoch=" + Integer.toUnsignedString(epoch, 16) + " cid=" + Integer.toUnsignedString(cid, 16)
                + " service=" + serviceId + " securityIndex=" + securityIndex;
    }
}
