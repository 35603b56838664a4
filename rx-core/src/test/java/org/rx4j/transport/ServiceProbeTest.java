// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.rx4j.transport.EngineChannel.MS;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.rx4j.config.RxConfig;
import org.rx4j.engine.FakePeer;
import org.rx4j.engine.call.Call;
import org.rx4j.engine.call.CallListener;
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

        /** Runs a call at index 2 into the server's raw ABORT −2, starts the probe and reads its DATA packet. */
        Probing() {
            List<Integer> ended = new ArrayList<>();
            ch.handler.run(e -> {
                refused = e.connect(EngineChannel.PEER, SVC, new RxkadClientSecurity(RxkadLevel.CLEAR,
                        new SessionKey(0x0123456789abcdefL), 3, new byte[64]));
                Call call = e.newCall(ch.now(), refused, new Ignore() {
                    @Override
                    public void onComplete(Call c, int errorCode) {
                        ended.add(errorCode);
                    }
                });
                call.write(ch.now(), Unpooled.copiedBuffer(new byte[] {0, 0, 0, 1}));
                call.finishSending(ch.now());
            });
            List<RxPacket> first = ch.sent();
            assertEquals(0L, ch.handler.taskFailures(), "task failures");
            RxHeader request = data(first).get(0).header();
            FakePeer server = FakePeer.serverOf(refused);
            ch.receive(server.abort(request.channel(), request.callNumber(), RxCodes.RX_INVALID_OPERATION));
            assertEquals(List.of(RxCodes.RX_INVALID_OPERATION), ended);
            assertEquals(RxException.Reason.SERVICE_NOT_OFFERED,
                    ClientEndReasons.ended(refused, RxCodes.RX_INVALID_OPERATION, true),
                    "the raw −2 before any CHALLENGE is the refusal of the service or the class");

            probe = ServiceProbe.of(refused, deferred);
            ch.handler.run(e -> probe.whenKnown(e, ch.now(), verdicts::add));
            List<DataPacket> sent = data(ch.sent());
            assertEquals(1, sent.size(), "one probe packet: " + sent);
            probeData = sent.get(0);
        }

        /** The probe's other end: the server's side of the probe's connection (rxnull). */
        FakePeer probeServer() {
            RxHeader h = probeData.header();
            return FakePeer.server(h.epoch(), h.cid() & ~3, h.serviceId());
        }

        @Override
        public void close() {
            ch.close();
        }
    }

    /** A listener that drops what arrives. */
    private static class Ignore implements CallListener {
        @Override
        public void onData(Call c, ByteBuf b, long now) {
            b.release();
        }

        @Override
        public void onWritable(Call c) {
        }

        @Override
        public void onComplete(Call c, int errorCode) {
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
            p.ch.advance(ServiceProbe.MIN_WAIT_NS - MS);
            assertTrue(p.verdicts.isEmpty(), "decided at the probe's deadline, not before");
            p.ch.advance(2 * MS);
            assertEquals(List.of(RxException.Reason.SECURITY_CLASS_NOT_OFFERED), p.verdicts);
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
}
