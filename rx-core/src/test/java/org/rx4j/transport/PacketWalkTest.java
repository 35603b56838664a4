// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.transport;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.rx4j.config.RxConfig;
import org.rx4j.engine.call.Call;
import org.rx4j.engine.call.CallListener;
import org.rx4j.engine.connection.Connection;
import org.rx4j.testing.LeakCheckExtension;
import org.rx4j.wire.PacketFlags;
import org.rx4j.wire.PacketType;
import org.rx4j.wire.RxHeader;
import org.rx4j.wire.RxPacket;

/**
 * The way of one inbound DATA packet's bytes to the application (docs/engine.md "Hop by hop"), seen from the stack
 * when the listener gets them: the engine hands them over from its event queue after the datagram was processed, and
 * the listener never reads them back out of the call inside the engine's callback.
 */
@ExtendWith(LeakCheckExtension.class)
class PacketWalkTest {
    /** Client listener: keeps the bytes and the rx4j classes on the stack (innermost first) when they arrive. */
    private static final class Keep implements CallListener {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        final List<String> stack = new ArrayList<>();
        boolean complete;

        @Override
        public void onData(Call c, ByteBuf b, long now) {
            stack.clear();
            for (StackTraceElement e : new Throwable().getStackTrace()) {
                String k = e.getClassName();
                if (k.startsWith("org.rx4j.") && !k.startsWith("org.rx4j.transport.PacketWalkTest")) {
                    String simple = k.substring(k.lastIndexOf('.') + 1);
                    if (stack.isEmpty() || !stack.get(stack.size() - 1).equals(simple)) {
                        stack.add(simple); // one entry per run of frames in one class
                    }
                    if (simple.equals("DatagramDecoder")) {
                        break; // where the datagram entered rx4j
                    }
                }
            }
            byte[] a = new byte[b.readableBytes()];
            b.readBytes(a);
            bytes.writeBytes(a);
            b.release();
        }

        @Override
        public void onReadComplete(Call c, long now) {
            complete = true;
        }

        @Override
        public void onWritable(Call c) {
        }

        @Override
        public void onComplete(Call c, int errorCode) {
        }
    }

    @Test
    void theReplysBytesReachTheListenerFromTheEventQueueWithoutTheListenerReading() {
        Keep app = new Keep();
        try (EngineChannel ch = new EngineChannel(RxConfig.defaults())) {
            ch.handler.run(e -> {
                Connection conn = e.connect(EngineChannel.PEER, 147, 0);
                Call call = e.newCall(ch.now(), conn, app);
                call.write(ch.now(), Unpooled.copiedBuffer(new byte[] {1, 2, 3}));
                call.finishSending(ch.now());
            });
            List<RxPacket> sent = ch.sent();
            RxHeader h = sent.get(0).header();
            RxHeader reply = new RxHeader(h.epoch(), h.cid(), h.callNumber(), 1, 1, PacketType.DATA,
                    PacketFlags.LAST_PACKET, 0, 0, 0, h.serviceId());
            ch.receive(EngineChannel.data(reply, new byte[] {7, 8, 9}));
            ch.sent();

            assertArrayEquals(new byte[] {7, 8, 9}, app.bytes.toByteArray());
            assertTrue(app.complete, "the end of the reply is told");
            // Innermost first: the call hands the bytes over, called by the event queue's drain at the end of
            // RxEngine.onDatagram, under the transport's handlers. Nothing of the dispatch or the call's parts is on
            // the stack (the packet was stored and the stack unwound first), and no listener reads: 4 boundaries from
            // the decoder to the listener.
            assertEquals(List.of("Call", "EventQueue", "RxEngine", "EngineHandler", "DatagramDecoder"), app.stack);
        }
    }
}
