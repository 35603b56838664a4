// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.gen.xg;

/**
 * A proc parameter. A {@code *} in a parameter is C's by-reference and is ignored (it is not optional data).
 *
 * @param direction IN (client to server), OUT (server to client) or INOUT (both)
 * @param decl the name and type
 */
public record Param(Direction direction, Decl decl) {
    /** Which way a parameter travels; one without a keyword keeps the previous one's direction (IN first). */
    public enum Direction {
        /** Client to server. */
        IN,
        /** Server to client. */
        OUT,
        /** Both: sent with the arguments, returned with the results. */
        INOUT
    }
}
