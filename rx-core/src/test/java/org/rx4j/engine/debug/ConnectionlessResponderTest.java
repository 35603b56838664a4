// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine.debug;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.rx4j.config.DebugReplies;
import org.rx4j.config.RxConfig;
import org.rx4j.counters.RxCounter;
import org.rx4j.engine.EngineParts;
import org.rx4j.engine.connection.Connection;
import org.rx4j.engine.output.PacketSink;
import org.rx4j.engine.peer.Peer;
import org.rx4j.engine.telemetry.RxCounters;
import org.rx4j.wire.DebugReply;
import org.rx4j.wire.DebugRequest;
import org.rx4j.wire.PacketFlags;
import org.rx4j.wire.PacketType;
import org.rx4j.wire.RxConstants;
import org.rx4j.wire.RxHeader;
import org.rx4j.wire.VersionPacket;

/**
 * VERSION and DEBUG answers under the default reply policy (docs/robustness.md "Rule: unsolicited traffic, loops and
 * amplification").
 */
class ConnectionlessResponderTest {
    private static final InetSocketAddress LOOPBACK = new InetSocketAddress("127.0.0.1", 7001);
    private static final InetSocketAddress REMOTE = new InetSocketAddress("192.0.2.1", 7001);

    /** A view with empty tables: what a DEBUG answer is given. */
    private static final EngineView VIEW = new EngineView() {
        @Override
        public RxConfig config() {
            return RxConfig.defaults();
        }

        @Override
        public Collection<Connection> clientConnections() {
            return List.of();
        }

        @Override
        public Collection<Connection> serverConnections() {
            return List.of();
        }

        @Override
        public Collection<Peer> peers() {
            return List.of();
        }

        @Override
        public RxCounters totals() {
            return new RxCounters(RxCounter.Scope.ENDPOINT);
        }
    };

    private static RxHeader query(int type, int flags) {
        return new RxHeader(0, 0, 0, 0, 1, type, flags, 0, 0, 0, 0);
    }

    private static VersionPacket version(int flags) {
        return new VersionPacket(query(PacketType.VERSION, flags), new byte[1]);
    }

    @Test
    void versionIsAnsweredWholeOnLoopbackAndCutToItsStringForAForgeableSource() {
        EngineParts e = new EngineParts(RxConfig.builder().versionString("test 1.0").build());
        ConnectionlessResponder r = new ConnectionlessResponder(e.config, e.sink, e.counters, VIEW);
        r.answer(REMOTE, version(PacketFlags.CLIENT_INITIATED));
        assertEquals(1, e.sent.size(), "29 bytes in: the 93-byte reply would exceed 3x, the string alone does not");
        VersionPacket cut = (VersionPacket) e.sent.get(0).packet();
        assertEquals("test 1.0", cut.versionString());
        assertEquals(9, cut.bodyLength(), "the string and its NUL");
        assertEquals(0, e.counters.get(RxCounter.REPLIES_WITHHELD));
        r.answer(LOOPBACK, version(PacketFlags.CLIENT_INITIATED));
        assertEquals(2, e.sent.size());
        VersionPacket reply = (VersionPacket) e.sent.get(1).packet();
        assertFalse(reply.header().isClientInitiated());
        assertEquals("test 1.0", reply.versionString());
        assertEquals(RxConstants.VERSION_REPLY_SIZE, reply.bodyLength(), "whole to loopback");
        assertEquals(2, e.counters.get(RxCounter.PACKETS_RECEIVED, PacketType.VERSION));
        assertEquals(2, e.counters.get(RxCounter.PACKETS_SENT, PacketType.VERSION));
        // A string too long to fit in 3 x 29 bytes is refused.
        EngineParts e2 = new EngineParts(RxConfig.builder().versionString("v".repeat(59)).build());
        new ConnectionlessResponder(e2.config, e2.sink, e2.counters, VIEW).answer(REMOTE,
                version(PacketFlags.CLIENT_INITIATED));
        assertEquals(0, e2.sent.size());
        assertEquals(1, e2.counters.get(RxCounter.REPLIES_WITHHELD));
    }

    @Test
    void theSinkHearsOfTheFirstWithheldReplyAndThenOfEachPowerOfTen() {
        // A version string too long for the cut reply: every VERSION from a forgeable source is withheld.
        EngineParts e = new EngineParts(RxConfig.builder().versionString("v".repeat(64)).build());
        List<Long> notices = new ArrayList<>();
        PacketSink sink = new PacketSink() {
            @Override
            public void send(InetSocketAddress peer, org.rx4j.wire.RxPacket packet) {
                e.sink.send(peer, packet);
            }

            @Override
            public void sendJumbogram(InetSocketAddress peer, List<org.rx4j.wire.DataPacket> packets) {
                e.sink.sendJumbogram(peer, packets);
            }

            @Override
            public void debugReplyWithheld(InetSocketAddress querier, DebugReplies policy, long withheld) {
                assertEquals(REMOTE, querier);
                assertEquals(DebugReplies.LOOPBACK_OR_NO_AMPLIFICATION, policy);
                notices.add(withheld);
            }
        };
        ConnectionlessResponder r = new ConnectionlessResponder(e.config, sink, e.counters, VIEW);
        for (int i = 0; i < 1000; i++) {
            r.answer(REMOTE, version(PacketFlags.CLIENT_INITIATED));
            r.answer(LOOPBACK, version(PacketFlags.CLIENT_INITIATED)); // answered: no notice
        }
        assertEquals(List.of(1L, 10L, 100L, 1000L), notices);
        assertEquals(1000, e.counters.get(RxCounter.REPLIES_WITHHELD));
    }

    @Test
    void repliesAreCountedButNeverAnswered() {
        EngineParts e = new EngineParts(RxConfig.defaults());
        ConnectionlessResponder r = new ConnectionlessResponder(e.config, e.sink, e.counters, VIEW);
        r.answer(LOOPBACK, version(0));
        assertEquals(0, e.sent.size());
        assertEquals(1, e.counters.get(RxCounter.PACKETS_RECEIVED, PacketType.VERSION));
        assertEquals(0, e.counters.get(RxCounter.REPLIES_WITHHELD));
    }

    @Test
    void debugGoesToTheInstalledResponderWithTheView() {
        EngineParts e = new EngineParts(RxConfig.defaults());
        ConnectionlessResponder r = new ConnectionlessResponder(e.config, e.sink, e.counters, VIEW);
        DebugRequest request = new DebugRequest(query(PacketType.DEBUG, PacketFlags.CLIENT_INITIATED),
                DebugRequest.GETSTATS, 0, 0);
        r.answer(LOOPBACK, request);
        assertEquals(0, e.sent.size(), "no responder: DEBUG is dropped");
        List<EngineView> asked = new ArrayList<>();
        r.setDebugResponder((view, reply, req) -> {
            asked.add(view);
            return new DebugReply(reply, new byte[8]);
        });
        r.answer(LOOPBACK, request);
        assertEquals(1, e.sent.size());
        assertSame(VIEW, asked.get(0));
        assertEquals(2, e.counters.get(RxCounter.PACKETS_RECEIVED, PacketType.DEBUG));
    }
}
