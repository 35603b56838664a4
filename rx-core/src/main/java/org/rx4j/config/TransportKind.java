// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.config;

/**
 * Which socket implementation carries an endpoint's UDP socket: Java NIO (the library's default, everywhere), native
 * epoll (Linux x86_64, when Netty's native library loads), or AUTO: epoll where it loads, else NIO. A plain choice: the transport layer maps it to its Netty classes,
 * and {@code RxEndpoint.unavailabilityReason(TransportKind)} tells whether it can run here.
 */
public enum TransportKind {
    /** Java NIO datagram channel. */
    NIO,
    /** Netty's native epoll datagram channel (Linux x86_64; recvmmsg batching). */
    EPOLL,
    /**
     * {@link #EPOLL} where Netty's native epoll library loads, else {@link #NIO}; always available. Reading up to 8
     * datagrams per system call, epoll keeps a server's legitimate traffic flowing under a datagram flood where NIO's
     * one call per datagram does not (docs/robustness.md "Flood").
     */
    AUTO;

    /**
     * Parses a name as given on the command line.
     *
     * @param name "nio", "epoll" or "auto", any case
     * @return the kind
     * @throws IllegalArgumentException for another name
     */
    public static TransportKind parse(String name) {
        return switch (name.toLowerCase(java.util.Locale.ROOT)) {
            case "nio" -> NIO;
            case "epoll" -> EPOLL;
            case "auto" -> AUTO;
            default -> throw new IllegalArgumentException("unknown transport '" + name + "' (nio, epoll or auto)");
        };
    }
}
