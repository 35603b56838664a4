package org.rx4j.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.rx4j.config.RxConfig;
import org.rx4j.config.TransportKind;
import org.rx4j.testing.LeakCheckExtension;
import org.rx4j.wire.DataPacket;
import org.rx4j.wire.PacketEncoder;
import org.rx4j.wire.PacketFlags;
import org.rx4j.wire.PacketType;
import org.rx4j.wire.RxHeader;

/**
 * Packets handed to the engine belong to it, also when the engine then throws (a service handler that fails on
 * the event loop): the inbound handler must not release them a second time.
 */
@Timeout(30)
@ExtendWith(LeakCheckExtension.class)
class InboundOwnershipTest {
    private static final int SVC = 147;

    @Test
    void packetsTheEngineTookAreNotReleasedAgainWhenItThrows() throws Exception {
        RxConfig config = RxConfig.builder().checkReach(false).build();
        try (RxTransport t = RxTransport.bind(config, new InetSocketAddress("127.0.0.1", 0), TransportKind.NIO,
                e -> e.registerService(SVC, 0, call -> {
                    throw new IllegalStateException("a failing service handler");
                }));
             DatagramSocket sender = new DatagramSocket()) {
            t.startReading();
            RxHeader h = new RxHeader(0x80000001, 0x100, 1, 1, 1, PacketType.DATA,
                    PacketFlags.CLIENT_INITIATED | PacketFlags.LAST_PACKET, 0, 0, 0, SVC);
            ByteBuf datagram = PacketEncoder.encode(new DataPacket(h, Unpooled.wrappedBuffer(new byte[10])),
                    UnpooledByteBufAllocator.DEFAULT);
            byte[] bytes = ByteBufUtil.getBytes(datagram);
            datagram.release();
            sender.send(new DatagramPacket(bytes, bytes.length, t.localAddress()));
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (t.submit(e -> t.datagramsReceived()).join() == 0 && System.nanoTime() < until) {
                Thread.onSpinWait();
            }
            assertEquals(1L, t.submit(e -> t.datagramsReceived()).join());
            assertTrue(t.submit(e -> e.serverConnections().size()).join() == 1, "the call was created");
            // The call still holds the request packet: ending it releases that packet exactly once.
            t.submit(e -> {
                e.shutdown(t.now());
                return null;
            }).join();
        }
    }
}
