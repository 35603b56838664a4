// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.wire;

/**
 * A DEBUG request (type 8 with CLIENT_INITIATED): int32 debug type, int32 index (rx-wire-facts.md §9).
 *
 * @param header the header (epoch 999, cid 0, callNumber = rxdebug's counter, flags 0x05)
 * @param debugType one of the {@code GET*} constants, or any other value (answered with {-8, -8})
 * @param index which connection or peer for GETCONN/GETALLCONN/GETPEER, 0-based
 * @param extraBytes body bytes after the 8 the request needs; written back as zeros, &gt;= 0
 */
public record DebugRequest(RxHeader header, int debugType, int index, int extraBytes) implements RxPacket {
    /** Debug type: general statistics (56-byte {@link DebugStats} reply). */
    public static final int GETSTATS = 1;
    /** Debug type: the index-th "interesting" connection (176-byte {@link DebugConn} reply). */
    public static final int GETCONN = 2;
    /** Debug type: the index-th connection of all (176-byte reply). */
    public static final int GETALLCONN = 3;
    /** Debug type: struct rx_statistics (284-byte {@link RxStatistics} reply). */
    public static final int RXSTATS = 4;
    /** Debug type: the index-th peer (132-byte {@link DebugPeer} reply). */
    public static final int GETPEER = 5;
    /** Body bytes of a request. */
    public static final int SIZE = 8;

    /** @throws IllegalArgumentException if the header is not DEBUG or extraBytes is negative */
    public DebugRequest {
        if (header.type() != PacketType.DEBUG || extraBytes < 0) {
            throw new IllegalArgumentException("not a DEBUG request: " + header);
        }
    }

    @Override
    public int bodyLength() {
        return SIZE + extraBytes;
    }
}
