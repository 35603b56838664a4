// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import java.io.DataOutputStream;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.rx4j.rpc.RxEndpoint;
import org.rx4j.rpc.RxService;
import org.rx4j.wire.AbortPacket;
import org.rx4j.wire.AckPacket;
import org.rx4j.wire.AckReason;
import org.rx4j.wire.DataPacket;
import org.rx4j.wire.PacketDecoder;
import org.rx4j.wire.PacketEncoder;
import org.rx4j.wire.PacketFlags;
import org.rx4j.wire.PacketType;
import org.rx4j.wire.RxHeader;
import org.rx4j.wire.RxPacket;

/**
 * Hostile-input probe (docs/robustness.md "Rule: the first LAST_PACKET holds"), run by hand on loopback; not a test.
 * Starts an rx4j server in this JVM (the public API, a whole-stream handler that reads the request to its end and
 * replies with the byte count), then sends it from a raw UDP socket a 3-packet request of {@code size} bytes per
 * packet (packet n filled with byte 0x11·n), in the order 3+LAST, 2+LAST, 1, 2, {@code gapMs} apart, answering the
 * server's PINGs. Prints what the handler read (bytes by value) against what was sent, and the reply. Run with the
 * shaded rxperf jar on the class path:
 *
 * <pre>java -cp rx-perf/target/rxperf.jar scripts/hostile/ConflictingLast.java [PORT=7302] [SIZE=100] [GAP_MS=20]</pre>
 */
public final class ConflictingLast {
    private static final int SERVICE = 4711;

    public static void main(String[] args) throws Exception {
        int port = args.length > 0 ? Integer.parseInt(args[0]) : 7302;
        int size = args.length > 1 ? Integer.parseInt(args[1]) : 100;
        int gapMs = args.length > 2 ? Integer.parseInt(args[2]) : 20;
        InetAddress host = InetAddress.getLoopbackAddress();
        CompletableFuture<byte[]> seen = new CompletableFuture<>();
        try (RxEndpoint server = RxEndpoint.builder()
                .bind(new InetSocketAddress(host, port))
                .service(RxService.builder(SERVICE).wholeStream(call -> {
                    byte[] all = call.input().readAllBytes();
                    seen.complete(all);
                    new DataOutputStream(call.output()).writeInt(all.length);
                }).build())
                .open();
             DatagramSocket s = new DatagramSocket()) {
            int epoch = 0x4BAD0000 | (int) (System.nanoTime() & 0xFFFF);
            int cid = 0x4000;
            int serial = 0;
            int[][] order = {{3, 1}, {2, 1}, {1, 0}, {2, 0}};
            StringBuilder sent = new StringBuilder();
            for (int[] o : order) {
                int seq = o[0];
                int flags = PacketFlags.CLIENT_INITIATED | (o[1] == 1 ? PacketFlags.LAST_PACKET : 0);
                RxHeader h = new RxHeader(epoch, cid, 1, seq, ++serial, PacketType.DATA, flags, 0, 0, 0, SERVICE);
                ByteBuf body = Unpooled.buffer(size);
                for (int k = 0; k < size; k++) {
                    body.writeByte(0x11 * seq);
                }
                send(s, host, port, new DataPacket(h, body));
                sent.append(sent.length() == 0 ? "" : ", ").append(seq).append(o[1] == 1 ? "+LAST" : "");
                Thread.sleep(gapMs);
            }
            System.out.printf("sent a %d-byte request as packets %s (%d bytes each; packet n filled with 0x%02x*n)%n",
                    3 * size, sent, size, 0x11);
            s.setSoTimeout(100);
            long end = System.nanoTime() + 10_000_000_000L;
            String reply = "none within 10 s";
            int pings = 0;
            byte[] buf = new byte[65536];
            boolean done = false;
            while (!done && System.nanoTime() - end < 0) {
                DatagramPacket d = new DatagramPacket(buf, buf.length);
                try {
                    s.receive(d);
                } catch (SocketTimeoutException e) {
                    continue;
                }
                List<RxPacket> in = new ArrayList<>();
                if (PacketDecoder.decode(Unpooled.wrappedBuffer(d.getData(), 0, d.getLength()), in) != null) {
                    continue;
                }
                for (RxPacket p : in) {
                    RxHeader h = p.header();
                    RxHeader r = new RxHeader(epoch, cid, 1, 0, ++serial, PacketType.ACK,
                            PacketFlags.CLIENT_INITIATED, 0, 0, 0, SERVICE);
                    if (p instanceof AckPacket a && a.reason() == AckReason.PING) {
                        send(s, host, port, AckPacket.of(r, 1, 0, h.serial(), AckReason.PING_RESPONSE, new byte[0],
                                1444, 1444, 32, 1));
                        pings++;
                    } else if (p instanceof DataPacket dp && h.seq() == 1) {
                        reply = dp.payload().readableBytes() >= 4
                                ? "DATA saying " + dp.payload().getInt(dp.payload().readerIndex()) + " bytes"
                                : "DATA of " + dp.payload().readableBytes() + " bytes";
                        // Acknowledge the one-packet reply so the server's call completes.
                        send(s, host, port, AckPacket.of(r, 2, 1, h.serial(), AckReason.REQUESTED, new byte[0],
                                1444, 1444, 32, 1));
                        done = h.hasFlag(PacketFlags.LAST_PACKET);
                    } else if (p instanceof AbortPacket ab) {
                        reply = "ABORT " + ab.code();
                        done = true;
                    }
                    p.release();
                }
            }
            String handler;
            try {
                byte[] all = seen.get(1, TimeUnit.SECONDS);
                Map<String, Integer> byValue = new TreeMap<>();
                for (byte b : all) {
                    byValue.merge(String.format("0x%02x", b & 0xFF), 1, Integer::sum);
                }
                handler = all.length + " bytes of " + 3 * size + " sent, by value " + byValue;
            } catch (java.util.concurrent.TimeoutException e) {
                handler = "nothing (no handler ran or it did not finish)";
            }
            System.out.printf("the server's handler read %s; reply %s; %d PINGs answered%n", handler, reply, pings);
        }
    }

    private static void send(DatagramSocket s, InetAddress host, int port, RxPacket p) throws Exception {
        ByteBuf out = PacketEncoder.encode(p, UnpooledByteBufAllocator.DEFAULT);
        p.release();
        byte[] b = new byte[out.readableBytes()];
        out.readBytes(b);
        out.release();
        s.send(new DatagramPacket(b, b.length, host, port));
    }
}
