// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.afs.cell;

import java.net.InetAddress;
import java.util.Objects;

/**
 * One database server of a cell, as a CellServDB line names it ({@code 10.0.0.1 #afsdb1.example.org}).
 *
 * @param address the server's IPv4 address
 * @param host the host name from the line's comment, or {@code ""} when the comment is absent or not a host name
 *     (the address does not carry it)
 * @param nonVoting true for a bracketed address ({@code [10.0.0.3] #host}): a non-voting ubik clone, which
 *     clients may still ask
 */
public record DbServer(InetAddress address, String host, boolean nonVoting) {
    /**
     * @throws NullPointerException if {@code address} or {@code host} is null
     */
    public DbServer {
        Objects.requireNonNull(address, "address");
        Objects.requireNonNull(host, "host");
    }
}
