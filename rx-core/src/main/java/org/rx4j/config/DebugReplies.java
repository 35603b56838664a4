// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.config;

/**
 * Which connectionless queries (DEBUG from rxdebug, VERSION) an endpoint answers (docs/robustness.md, Rule: unsolicited
 * traffic, loops and amplification). A query has no handshake, so its source address may be forged: a reply much larger
 * than the query would let anyone reflect amplified traffic at a third party, so a reply to a source that may be forged
 * is at most {@link Reachability#AMPLIFICATION_LIMIT} times the query (RFC 9000 §8.1's bound). OpenAFS's rxdebug sends
 * unpadded queries (29-byte VERSION, 36-byte DEBUG) and expects replies of 84–312 bytes (rx-wire-facts.md §9): within
 * the bound fit GETSTATS (84 for 36) and a VERSION reply cut to the version string (at most 87 bytes for 29); the rest
 * only from loopback addresses, which the kernel never accepts from a network interface, under the default.
 */
public enum DebugReplies {
    /** Never answer DEBUG or VERSION. */
    NEVER,
    /**
     * Answer only when the reply, header included, is at most {@link Reachability#AMPLIFICATION_LIMIT} times the query
     * datagram (an unpadded GETSTATS or VERSION query, or a padded one).
     */
    NO_AMPLIFICATION,
    /** As {@link #NO_AMPLIFICATION}, and answer any query from a loopback address (127/8, ::1). The default. */
    LOOPBACK_OR_NO_AMPLIFICATION,
    /** Answer every query carrying CLIENT_INITIATED, whatever its size (OpenAFS's behaviour). */
    ALWAYS;

    /**
     * @param queryBytes size of the query, header + body, bytes
     * @param replyBytes size of the reply, header + body, bytes
     * @param loopback true when the query came from a loopback address
     * @return true when the reply may be sent under this policy
     */
    public boolean allows(int queryBytes, int replyBytes, boolean loopback) {
        return switch (this) {
            case NEVER -> false;
            case NO_AMPLIFICATION -> withinBound(queryBytes, replyBytes);
            case LOOPBACK_OR_NO_AMPLIFICATION -> loopback || withinBound(queryBytes, replyBytes);
            case ALWAYS -> true;
        };
    }

    /**
     * @param queryBytes size of the query, header + body, bytes
     * @return the largest reply, header + body, bytes, the bound lets go to a source that may be forged
     */
    public static int largestBoundedReply(int queryBytes) {
        return Reachability.AMPLIFICATION_LIMIT * queryBytes;
    }

    private static boolean withinBound(int queryBytes, int replyBytes) {
        return replyBytes <= largestBoundedReply(queryBytes);
    }
}
