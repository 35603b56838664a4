package org.rx4j.config;

/**
 * Which connectionless queries (DEBUG from rxdebug, VERSION) an endpoint answers (docs/robustness.md, Rule: unsolicited
 * traffic, loops and amplification). A query has no handshake, so its source address may be forged: a reply larger than
 * the query would let anyone reflect amplified traffic at a third party. OpenAFS's rxdebug sends unpadded queries
 * (29-byte VERSION, 36-byte DEBUG) and expects replies of 84–312 bytes (rx-wire-facts.md §9), so the default keeps it
 * working where a forged source cannot reach the endpoint: from loopback addresses, which the kernel never accepts from
 * a network interface.
 */
public enum DebugReplies {
    /** Never answer DEBUG or VERSION. */
    NEVER,
    /** Answer only when the reply, header included, is no larger than the query datagram (a padded query). */
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
            case NO_AMPLIFICATION -> replyBytes <= queryBytes;
            case LOOPBACK_OR_NO_AMPLIFICATION -> loopback || replyBytes <= queryBytes;
            case ALWAYS -> true;
        };
    }
}
