// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc.client;

import java.util.Objects;
import org.rx4j.rpc.errors.RxException;

/**
 * Why a server is known unreachable, as an unreachability probe found it ({@link UnreachableProbe}): the reason its
 * connection's calls fail with (RX_CALL_DEAD −1 raised on this side) and the message their exception carries
 * (docs/embedding.md "A peer that does not answer").
 *
 * @param reason {@link RxException.Reason#PEER_UNREACHABLE} (ICMP port unreachable),
 *     {@link RxException.Reason#HOST_UNREACHABLE} (ICMP host unreachable) or {@link RxException.Reason#NO_ROUTE}
 *     (no route to the server's network here, or ICMP network unreachable)
 * @param message what was seen, naming the server's address
 */
public record PeerUnreachable(RxException.Reason reason, String message) {
    /**
     * @throws NullPointerException if either is null
     */
    public PeerUnreachable {
        Objects.requireNonNull(reason, "reason");
        Objects.requireNonNull(message, "message");
    }
}
