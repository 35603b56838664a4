// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.rx4j.transport.EngineChannel.MS;

import io.netty.buffer.Unpooled;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.rx4j.config.RxConfig;
import org.rx4j.engine.FakePeer;
import org.rx4j.engine.call.Call;
import org.rx4j.engine.connection.Connection;
import org.rx4j.rpc.client.ClientEndReasons;
import org.rx4j.rpc.client.ServiceProbe;
import org.rx4j.rpc.errors.RxCodes;
import org.rx4j.rpc.errors.RxException;
import org.rx4j.security.rxkad.RxkadClientSecurity;
import org.rx4j.security.rxkad.RxkadLevel;
import org.rx4j.security.rxkad.SessionKey;
import org.rx4j.testing.LeakCheckExtension;
import org.rx4j.wire.AbortPacket;
import org.rx4j.wire.AckReason;
import org.rx4j.wire.DataPacket;
import org.rx4j.wire.PacketFlags;
import org.rx4j.wire.RxHeader;
import org.rx4j.wire.RxPacket;

/**
 * The rxnull probe that tells an unknown service from a security class not offered (docs/errors.md "Unknown service
 * or class not offered"), on an embedded channel with a virtual clock: a call on an rxkad connection (its ticket is
 * never read: the server refuses before any handshake) meets the server's raw ABORT −2, the probe asks the same service id with rxnull, and the server's answer to the
 * probe (the same raw ABORT, an ACK, or nothing) decides.
 */
@ExtendWith(LeakCheckExtension.class)
class ServiceProbeTest {
    private static final int SVC = 52;

    /** What a probe sent and what it decided. */
    private static final class Probing implements AutoCloseable {
        final EngineChannel ch = new EngineChannel(RxConfig.builder().checkReach(false).build());
        final List<RxException.Reason> verdicts = new ArrayList<>();
        final Executor deferred = r -> {
            if (!ch.handler.runAtUnitEnd(r)) {
                r.run();
            }
        };
        Connection refused;
        ServiceProbe probe;
        DataPacket probeData;

        /** Runs a call on an rxkad connection into the server's raw ABORT −2, starts the probe, reads its packet. */
        Probing() {
            this(true);
        }

        /**
         * Runs a call into the server's raw ABORT −2, starts the probe and reads its DATA packet.
         *
         * @param rxkad true for a connection with rxkad (index 2), false for rxnull
         */
        Probing(boolean rxkad) {
            EngineHandlerTest.Drain refusedCall = new EngineHandlerTest.Drain(ch);
            ch.handler.run(e -> {
                refused = rxkad ? e.connect(EngineChannel.PEER, SVC, new RxkadClientSecurity(RxkadLevel.CLEAR,
                        new SessionKey(0x0123456789abcdefL), 3, new byte[64])) : e.connect(EngineChannel.PEER, SVC, 0);
                Call call = e.newCall(ch.now(), refused, refusedCall);
                call.write(ch.now(), Unpooled.copiedBuffer(new byte[] {0, 0, 0, 1}));
                call.finishSending(ch.now());
            });
            List<RxPacket> first = ch.sent();
            RxHeader request = data(first).get(0).header();
            FakePeer server = FakePeer.serverOf(refused);
            ch.receive(server.abort(request.channel(), request.callNumber(), RxCodes.RX_INVALID_OPERATION));
            assertEquals(List.of(RxCodes.RX_INVALID_OPERATION), refusedCall.ended);
            assertEquals(RxException.Reason.SERVICE_NOT_OFFERED,
                    ClientEndReasons.ended(refused, RxCodes.RX_INVALID_OPERATION, true),
                    "a −2 before anything else from the server is the refusal of the service or the class, or on "
                            + "rxnull a handler's: the probe tells");

            probe = ServiceProbe.of(refused, deferred, ch::now);
            ch.handler.run(e -> probe.whenKnown(e, ch.now(), verdicts::add));
            probeData = nextProbe();
        }

        /** @return the one DATA packet the probe sent since the last look */
        DataPacket nextProbe() {
            List<DataPacket> sent = data(ch.sent());
            assertEquals(1, sent.size(), "one probe packet: " + sent);
            return sent.get(0);
        }

        /** @return the probe sent after the server refused the first (rxnull) probe with a raw ABORT −2 */
        DataPacket refuseRxnullProbe() {
            RxHeader h = probeData.header();
            ch.receive(probeServer().abort(h.channel(), h.callNumber(), RxCodes.RX_INVALID_OPERATION));
            return nextProbe();
        }

        /** The probe's other end: the server's side of the probe's connection (rxnull). */
        FakePeer probeServer() {
            return serverOf(probeData);
        }

        /** @return the server's side of the connection that sent {@code d} */
        static FakePeer serverOf(DataPacket d) {
            RxHeader h = d.header();
            FakePeer server = FakePeer.server(h.epoch(), h.cid() & ~3, h.serviceId());
            return h.securityIndex() == 0 ? server : server.withSecurityIndex(h.securityIndex());
        }

        @Override
        public void close() {
            ch.close();
        }
    }

    private static List<DataPacket> data(List<RxPacket> packets) {
        List<DataPacket> d = new ArrayList<>();
        for (RxPacket p : packets) {
            if (p instanceof DataPacket dp) {
                d.add(dp);
            }
        }
        return d;
    }

    private static List<AbortPacket> aborts(List<RxPacket> packets) {
        List<AbortPacket> a = new ArrayList<>();
        for (RxPacket p : packets) {
            if (p instanceof AbortPacket ap) {
                a.add(ap);
            }
        }
        return a;
    }

    @Test
    void theProbeAsksTheSameServiceWithRxnullInOneBytePacketNoHandlerCanActOn() {
        try (Probing p = new Probing()) {
            RxHeader h = p.probeData.header();
            assertEquals(SVC, h.serviceId());
            assertEquals(0, h.securityIndex(), "rxnull");
            assertNotEquals(p.refused.cid(), h.cid() & ~3, "a connection of its own");
            assertEquals(1, p.probeData.bodyLength(), "one byte: less than an opcode");
            assertFalse(h.hasFlag(PacketFlags.LAST_PACKET), "not the last packet: a whole-request handler waits");
            assertTrue(h.hasFlag(PacketFlags.REQUEST_ACK), "asks for an ACK at once: " + h);
            assertTrue(p.verdicts.isEmpty(), "nothing decided before the server answers");
        }
    }

    @Test
    void theSameRawAbortForRxnullMeansAnUnknownService() {
        try (Probing p = new Probing()) {
            RxHeader h = p.probeData.header();
            p.ch.receive(p.probeServer().abort(h.channel(), h.callNumber(), RxCodes.RX_INVALID_OPERATION));
            assertEquals(List.of(RxException.Reason.UNKNOWN_SERVICE), p.verdicts);

            // A later call that meets the refusal gets the verdict at once, without a second probe.
            List<RxException.Reason> later = new ArrayList<>();
            p.ch.handler.run(e -> p.probe.whenKnown(e, p.ch.now(), later::add));
            assertEquals(List.of(RxException.Reason.UNKNOWN_SERVICE), later);
            assertTrue(data(p.ch.sent()).isEmpty(), "no second probe");
        }
    }

    @Test
    void anAckOfTheProbeMeansTheClassIsNotOffered() {
        try (Probing p = new Probing()) {
            RxHeader h = p.probeData.header();
            p.ch.receive(p.probeServer().ack(h.channel(), h.callNumber(), 2, 1, h.serial(), AckReason.REQUESTED,
                    new byte[0], 32, 1));
            assertEquals(List.of(RxException.Reason.SECURITY_CLASS_NOT_OFFERED), p.verdicts, "decided by the ACK");
            assertTrue(aborts(p.ch.sent()).isEmpty(), "the probe's call runs on to its deadline");
            p.ch.advance(ServiceProbe.MIN_WAIT_NS + MS);
            assertEquals(List.of(RxException.Reason.SECURITY_CLASS_NOT_OFFERED), p.verdicts, "decided once");
            List<AbortPacket> aborts = aborts(p.ch.sent());
            assertEquals(1, aborts.size(), "the probe's call is aborted at its deadline: " + aborts);
            assertEquals(RxCodes.RX_CALL_TIMEOUT, aborts.get(0).code());
            assertEquals(h.callNumber(), aborts.get(0).header().callNumber());
        }
    }

    @Test
    void silenceUntilTheDeadlineLeavesItOpen() {
        try (Probing p = new Probing()) {
            p.ch.advance(ServiceProbe.MIN_WAIT_NS - MS);
            assertTrue(p.verdicts.isEmpty(), "still waiting within the shortest wait");
            p.ch.advance(2 * MS);
            assertEquals(List.of(RxException.Reason.SERVICE_NOT_OFFERED), p.verdicts);
            List<AbortPacket> aborts = aborts(p.ch.sent());
            assertEquals(1, aborts.size(), "the probe's call is aborted at its deadline: " + aborts);
            assertEquals(RxCodes.RX_CALL_TIMEOUT, aborts.get(0).code());
        }
    }

    /** On rxnull a −2 before anything else may be a handler's: the rxnull probe's ACK says the service runs there. */
    @Test
    void onRxnullAnAckedProbeLeavesTheMinusTwoToTheHandler() {
        try (Probing p = new Probing(false)) {
            RxHeader h = p.probeData.header();
            assertEquals(0, h.securityIndex());
            p.ch.receive(p.probeServer().ack(h.channel(), h.callNumber(), 2, 1, h.serial(), AckReason.REQUESTED,
                    new byte[0], 32, 1));
            assertEquals(List.of(RxException.Reason.PEER), p.verdicts);
        }
    }

    /** On rxnull a repeated raw ABORT is followed by an rxkad probe; its raw ABORT too means an unknown service. */
    @Test
    void onRxnullTwoRawAbortsMeanAnUnknownService() {
        try (Probing p = new Probing(false)) {
            DataPacket second = p.refuseRxnullProbe();
            assertTrue(p.verdicts.isEmpty(), "not decided by rxnull alone");
            RxHeader h2 = second.header();
            assertEquals(2, h2.securityIndex(), "the second probe asks with rxkad");
            assertEquals(SVC, h2.serviceId());
            assertEquals(1, second.bodyLength());
            assertFalse(h2.hasFlag(PacketFlags.LAST_PACKET));
            p.ch.receive(Probing.serverOf(second).abort(h2.channel(), h2.callNumber(), RxCodes.RX_INVALID_OPERATION));
            assertEquals(List.of(RxException.Reason.UNKNOWN_SERVICE), p.verdicts);
        }
    }

    /** On rxnull, when only the rxkad probe is taken (here acknowledged), rxnull is the class not offered. */
    @Test
    void onRxnullAnAnsweredRxkadProbeMeansRxnullIsNotOffered() {
        try (Probing p = new Probing(false)) {
            DataPacket second = p.refuseRxnullProbe();
            // A server offering rxkad challenges, then aborts the connection over the probe's junk ticket.
            p.ch.receive(Probing.serverOf(second).abort(0, 0, 19270407));
            assertEquals(List.of(RxException.Reason.SECURITY_CLASS_NOT_OFFERED), p.verdicts);
        }
    }
}
