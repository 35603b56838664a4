// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.wire;

/**
 * Why a datagram was not decoded (see design.md "wire"): the transport counts each reason and drops
 * the datagram. Never thrown; returned by {@link PacketDecoder#decode}.
 */
public enum DecodeError {
    /** Fewer than 28 bytes: no complete Rx header. */
    TRUNCATED_HEADER,
    /** An ACK body shorter than its 18-byte fixed part. */
    TRUNCATED_ACK,
    /** An ACK whose nAcks entries run past the end of the datagram. */
    BAD_ACK_COUNT,
    /** An ABORT body shorter than its 4-byte code. */
    TRUNCATED_ABORT,
    /** A DEBUG request (CLIENT_INITIATED) body shorter than its 8 bytes. */
    TRUNCATED_DEBUG,
    /** A sub-packet with JUMBO_PACKET set is followed by fewer than 1412 + 4 bytes. */
    TRUNCATED_JUMBOGRAM,
    /** A jumbogram sub-packet carries LAST_PACKET but another sub-packet follows it. */
    LAST_PACKET_IN_JUMBOGRAM,
    /** More sub-packets than fit in a 64 KiB datagram (cannot happen for real datagrams). */
    TOO_MANY_JUMBO_PACKETS
}
