// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.SocketTimeoutException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
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
 * Hostile-input probe (docs/robustness.md "Live probe: forty calls without packet 1"), run by hand against a
 * live server; not a test. Opens {@code calls} server calls (4 per connection) that each send DATA packets 2..9
 * of a request (1412 bytes each) but never packet 1, answers every PING the server sends (so the peer looks
 * reachable), and listens for {@code seconds}. Prints what came back: PINGs answered, ACKs, ABORTs by code. Run
 * with the shaded rxperf jar on the class path:
 *
 * <pre>java -cp rx-perf/target/rxperf.jar scripts/hostile/FortyCalls.java PORT [CALLS=40] [SECONDS=20] [SERVICE=147]</pre>
 */
public final class FortyCalls {
    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        int calls = args.length > 1 ? Integer.parseInt(args[1]) : 40;
        int seconds = args.length > 2 ? Integer.parseInt(args[2]) : 20;
        int service = args.length > 3 ? Integer.parseInt(args[3]) : 147;
        InetAddress host = InetAddress.getLoopbackAddress();
        int epoch = 0x2BAD0000 | (int) (System.nanoTime() & 0xFFFF);
        int[] serials = new int[(calls + 3) / 4];
        try (DatagramSocket s = new DatagramSocket()) {
            for (int i = 0; i < calls; i++) {
                int conn = i / 4;
                int cid = 0x1000 + conn * 4;
                for (int seq = 2; seq <= 9; seq++) {
                    RxHeader h = new RxHeader(epoch, cid | (i % 4), 1, seq, ++serials[conn], PacketType.DATA,
                            PacketFlags.CLIENT_INITIATED, 0, 0, 0, service);
                    send(s, host, port, new DataPacket(h, Unpooled.buffer(1412).writeZero(1412)));
                }
            }
            System.out.printf("sent DATA seq 2..9 on %d calls (%d connections), never seq 1%n", calls,
                    serials.length);
            s.setSoTimeout(200);
            long end = System.nanoTime() + seconds * 1_000_000_000L;
            int pings = 0;
            int acks = 0;
            Map<Integer, Integer> aborts = new TreeMap<>();
            byte[] buf = new byte[65536];
            while (System.nanoTime() - end < 0) {
                DatagramPacket d = new DatagramPacket(buf, buf.length);
                try {
                    s.receive(d);
                } catch (SocketTimeoutException e) {
                    continue;
                }
                List<RxPacket> in = new ArrayList<>();
                ByteBuf b = Unpooled.wrappedBuffer(d.getData(), 0, d.getLength());
                if (PacketDecoder.decode(b, in) != null) {
                    continue;
                }
                for (RxPacket p : in) {
                    RxHeader h = p.header();
                    if (p instanceof AckPacket a) {
                        acks++;
                        if (h.hasFlag(PacketFlags.REQUEST_ACK)) {
                            int conn = ((h.cid() & ~3) - 0x1000) / 4;
                            RxHeader r = new RxHeader(epoch, h.cid(), h.callNumber(), 0, ++serials[conn],
                                    PacketType.ACK, PacketFlags.CLIENT_INITIATED, 0, 0, 0, service);
                            send(s, host, port, AckPacket.of(r, a.firstPacket(), 0, h.serial(),
                                    AckReason.PING_RESPONSE, new byte[0], 1444, 1444, 32, 1));
                            pings++;
                        }
                    } else if (p instanceof AbortPacket ab) {
                        aborts.merge(ab.code(), 1, Integer::sum);
                    }
                    p.release();
                }
            }
            System.out.printf("after %d s: %d ACKs received, %d PINGs answered, ABORTs by code %s%n", seconds,
                    acks, pings, aborts);
        }
    }

    private static void send(DatagramSocket s, InetAddress host, int port, RxPacket p) throws Exception {
        ByteBuf out = PacketEncoder.encode(p, UnpooledByteBufAllocator.DEFAULT);
        p.release();
        byte[] bytes = new byte[out.readableBytes()];
        out.readBytes(bytes);
        out.release();
        s.send(new DatagramPacket(bytes, bytes.length, host, port));
    }
}
