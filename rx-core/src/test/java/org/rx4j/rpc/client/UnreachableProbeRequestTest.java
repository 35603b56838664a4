// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.Unpooled;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.rx4j.config.DebugQueries;
import org.rx4j.wire.PacketDecoder;
import org.rx4j.wire.RxConstants;
import org.rx4j.wire.RxPacket;
import org.rx4j.wire.VersionPacket;

/**
 * The unreachability probe's datagram is a well-formed VERSION request that rx4j's default debug-reply policy answers
 * from any address: its body is as long as the version reply, so the reply is no larger than the query (a shorter
 * probe from another host was withheld and logged as a withheld rxdebug query).
 */
class UnreachableProbeRequestTest {
    @Test
    void theProbeIsAVersionRequestNoSmallerThanItsReply() {
        ByteBuffer probe = UnreachableProbe.request();
        int replyBytes = RxConstants.HEADER_SIZE + RxConstants.VERSION_REPLY_SIZE;
        assertEquals(replyBytes, probe.remaining());
        assertTrue(DebugQueries.DEFAULTS.debugReplies().allows(probe.remaining(), replyBytes, false),
                "answered from a non-loopback address under the default policy");

        List<RxPacket> packets = new ArrayList<>();
        PacketDecoder.decode(Unpooled.wrappedBuffer(probe), packets);
        assertEquals(1, packets.size());
        RxPacket p = packets.get(0);
        assertTrue(p instanceof VersionPacket, "a VERSION packet: " + p);
        assertTrue(p.header().isClientInitiated());
        p.release();
    }
}
