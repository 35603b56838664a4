// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.relay.core;

/** Which way a datagram travels through the relay. */
public enum Direction {
    /** Client → target (server): datagrams arriving on the relay's listen socket. */
    UPSTREAM("up"),
    /** Target (server) → client: datagrams arriving on a client's upstream socket. */
    DOWNSTREAM("down");

    private final String label;

    Direction(String label) {
        this.label = label;
    }

    /** @return the short name used in stats and warning lines: {@code up} or {@code down} */
    public String label() {
        return label;
    }
}
