// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.gen.xg;

/**
 * A size or maximum from the {@code .xg}: {@code [N]}, {@code <N>}, or {@code <>} (unbounded).
 *
 * @param value the number, elements or bytes; for an unbounded {@code <>} {@link #UNBOUNDED}
 * @param symbol the constant it was written as (e.g. {@code VLNAMEMAX}), or null for a literal or {@code <>}
 */
public record Bound(long value, String symbol) {
    /** The largest length rx-core's XDR reader accepts (its MAX_LENGTH), used for {@code <>}. */
    public static final long UNBOUNDED = Integer.MAX_VALUE - 8;

    /** @return true for {@code <>} */
    public boolean unbounded() {
        return value == UNBOUNDED && symbol == null;
    }
}
