// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.rx4j.engine.EngineHarness.REMOTE;

import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.rx4j.config.RxConfig;
import org.rx4j.engine.RecordingApps.Client;
import org.rx4j.engine.connection.Connection;
import org.rx4j.testing.LeakCheckExtension;
import org.rx4j.wire.AckPacket;
import org.rx4j.wire.AckReason;
import org.rx4j.wire.PacketFlags;
import org.rx4j.wire.PacketType;
import org.rx4j.wire.RxPacket;

/**
 * The ACK trailer a client sends an OpenAFS server that sends it data (docs/engine.md "Jumbogram size and windows
 * toward OpenAFS"): on a 9,000-byte link, maxDgramPackets 1, so that the server sends single packets of its natMTU
 * (8,524 bytes) in place of jumbograms of six 1,444-byte packets; on loopback, where OpenAFS says ifMTU 1,444, the
 * route's jumbogram limit as before.
 */
@ExtendWith(LeakCheckExtension.class)
class SinglePacketsFromOpenAfsTest {
    private static final int SVC = 147;

    /** Our interface toward the server: a 9,000-byte link less the IPv4 and UDP headers. */
    private final EngineHarness h =
            new EngineHarness(RxConfig.builder().checkReach(false).ifMtu(8972).build());

    @AfterEach
    void shutdown() {
        h.engine.shutdown(h.now); // releases what the calls still hold
        h.sent.forEach(d -> d.packets().forEach(RxPacket::release)); // the harness's decoded copies
    }

    /**
     * Starts a call, delivers the server's ACK of its request with the trailer given, then the reply's first packet
     * asking for an ACK.
     *
     * @return the trailer maxDgramPackets of the client's answer
     */
    private int answerToServerAdvertising(int maxMtu, int ifMtu, int maxDgram) {
        Connection conn = h.engine.connect(REMOTE, SVC, 0);
        new Client(() -> h.now, 10).start(h.engine, conn);
        FakePeer server = FakePeer.serverOf(conn);
        h.deliver(new AckPacket(server.header(0, 1, 0, PacketType.ACK, PacketFlags.SLOW_START_OK), 0, 0, 1, 1, 1,
                AckReason.REQUESTED, new byte[0], 4, maxMtu, ifMtu, 32, maxDgram, 0));
        int before = h.acksSent().size();
        h.deliver(server.data(0, 1, 1, PacketFlags.REQUEST_ACK, 1412));
        List<AckPacket> acks = h.acksSent();
        assertFalse(acks.size() == before, "the REQUEST_ACK is answered at once");
        AckPacket answer = acks.get(acks.size() - 1);
        assertEquals(AckReason.REQUESTED, answer.reason());
        assertEquals(8972, answer.ifMTU(), "our interface, as advertised to every peer");
        return answer.maxDgramPackets();
    }

    @Test
    void anOpenAfsServerOnANineThousandByteLinkIsAskedForSinglePackets() {
        // OpenAFS 1.8.9 at MTU 9000 (captured): maxMTU 15604, ifMTU 8524, maxDgramPackets 6.
        assertEquals(1, answerToServerAdvertising(15604, 8524, 6));
    }

    @Test
    void anOpenAfsServerSayingEthernetSizeIsAdvertisedJumbograms() {
        // OpenAFS on loopback (captured): maxMTU 5692, ifMTU 1444, maxDgramPackets 4.
        assertEquals(4, answerToServerAdvertising(5692, 1444, 4), "the harness's route: OpenAFS's habit, 4");
    }
}
