// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
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
 * Forged-request reflection probe, run by hand against a live rxperf server; a measurement, not a test
 * (docs/robustness.md "Rule: stateless reachability challenge"). One UDP socket plays a victim whose address is
 * proven: it makes an rxperf RPC call on connection A and answers the server's PINGs and DATA on it. Then a 48-byte
 * RECV request for {@code bytes} on a new connection B is sent "from" that address — from the same socket, which is
 * what the server sees of a spoofer who forges the victim's source address — and nothing on connection B is ever
 * answered (the spoofer does not see the replies, and the victim knows no connection B). Counts what the victim
 * address receives for connection B over {@code seconds} (past the server's 12 s dead time) and prints the
 * reflection factor: bytes out for B / bytes of the forged request.
 *
 * <pre>java -cp rx-perf/target/rxperf.jar scripts/hostile/ForgedReflection.java SERVER_HOST PORT [BYTES=200000000] [SECONDS=15] [BIND_HOST]</pre>
 */
public final class ForgedReflection {
    private static final int SERVICE = 147;
    private static final int RPC = 3;
    private static final int RECV = 1;
    private static final int CHUNK = 524288;

    public static void main(String[] args) throws Exception {
        InetSocketAddress server = new InetSocketAddress(InetAddress.getByName(args[0]), Integer.parseInt(args[1]));
        int bytes = args.length > 2 ? Integer.parseInt(args[2]) : 200_000_000;
        int seconds = args.length > 3 ? Integer.parseInt(args[3]) : 15;
        InetAddress bind = args.length > 4 ? InetAddress.getByName(args[4]) : InetAddress.getLoopbackAddress();
        int epochA = 0x80000000 | (int) (System.nanoTime() & 0x3FFFFFFF);
        int epochB = epochA ^ 0x00F0F0F0;
        int cidA = 0x4000;
        int cidB = 0x8000;
        try (DatagramSocket s = new DatagramSocket(new InetSocketAddress(bind, 0))) {
            s.setSoTimeout(50);
            // Connection A: an rxperf RPC call (4 bytes each way), its PINGs and DATA answered: the address is proven.
            byte[] rpc = ByteBuffer.allocate(28).putInt(3).putInt(RPC).putInt(CHUNK).putInt(CHUNK).putInt(4).putInt(4)
                    .putInt(0).array();
            send(s, server, data(epochA, cidA, rpc));
            boolean done = false;
            long until = System.nanoTime() + 5_000_000_000L;
            while (!done && System.nanoTime() - until < 0) {
                for (RxPacket p : receive(s)) {
                    RxHeader h = p.header();
                    if ((h.cid() & ~3) == cidA) {
                        done |= answer(s, server, p, epochA);
                    }
                    p.release();
                }
            }
            if (!done) {
                System.out.println("the victim's own call did not complete: address not proven");
                return;
            }
            Thread.sleep(500);
            drain(s);
            // Connection B: one forged RECV request from the proven address, never answered.
            byte[] recv = ByteBuffer.allocate(20).putInt(3).putInt(RECV).putInt(CHUNK).putInt(CHUNK).putInt(bytes)
                    .array();
            int in = send(s, server, data(epochB, cidB, recv));
            long outBytes = 0;
            int outDatagrams = 0;
            int[] byType = new int[16];
            long t0 = System.nanoTime();
            byte[] buf = new byte[65536];
            while (System.nanoTime() - t0 < seconds * 1_000_000_000L) {
                DatagramPacket d = new DatagramPacket(buf, buf.length);
                try {
                    s.receive(d);
                } catch (SocketTimeoutException e) {
                    continue;
                }
                List<RxPacket> ps = decode(buf, d.getLength());
                if (System.getenv("REFLECTION_TRACE") != null && !ps.isEmpty()) {
                    System.out.println("received " + d.getLength() + " B: " + ps.get(0).header());
                }
                if (!ps.isEmpty() && (ps.get(0).header().cid() & ~3) == cidB) {
                    outDatagrams++;
                    outBytes += d.getLength();
                    byType[ps.get(0).header().type() & 15]++;
                } else if (!ps.isEmpty() && (ps.get(0).header().cid() & ~3) == cidA) {
                    for (RxPacket p : ps) {
                        answer(s, server, p, epochA); // keep the victim's own connection as a live client would
                    }
                }
                ps.forEach(RxPacket::release);
            }
            System.out.printf("forged request: %d bytes; the victim address received for it %d datagrams, %d bytes "
                    + "(DATA %d, ACK %d, ABORT %d, CHALLENGE %d): reflection x%.2f%n", in, outDatagrams, outBytes,
                    byType[PacketType.DATA], byType[PacketType.ACK], byType[PacketType.ABORT],
                    byType[PacketType.CHALLENGE], (double) outBytes / in);
        }
    }

    private static DataPacket data(int epoch, int cid, byte[] payload) {
        RxHeader h = new RxHeader(epoch, cid, 1, 1, 1, PacketType.DATA,
                PacketFlags.CLIENT_INITIATED | PacketFlags.LAST_PACKET, 0, 0, 0, SERVICE);
        return new DataPacket(h, Unpooled.wrappedBuffer(payload));
    }

    /** Answers a packet of the victim's own connection; true when it was the reply's last DATA. */
    private static boolean answer(DatagramSocket s, InetSocketAddress server, RxPacket p, int epoch)
            throws IOException {
        RxHeader h = p.header();
        int serial = 1000 + (int) (System.nanoTime() & 0xFFFF);
        if (p instanceof AckPacket a && a.reason() == AckReason.PING) {
            RxHeader r = new RxHeader(epoch, h.cid(), h.callNumber(), 0, serial, PacketType.ACK,
                    PacketFlags.CLIENT_INITIATED, 0, 0, 0, SERVICE);
            send(s, server, AckPacket.of(r, 2, 1, h.serial(), AckReason.PING_RESPONSE, new byte[0], 1444, 1444, 32,
                    1));
        } else if (h.type() == PacketType.DATA) {
            RxHeader r = new RxHeader(epoch, h.cid(), h.callNumber(), 0, serial, PacketType.ACK,
                    PacketFlags.CLIENT_INITIATED, 0, 0, 0, SERVICE);
            send(s, server, AckPacket.of(r, h.seq() + 1, h.seq(), h.serial(), AckReason.REQUESTED, new byte[0],
                    1444, 1444, 32, 1));
            return h.hasFlag(PacketFlags.LAST_PACKET);
        }
        return false;
    }

    private static List<RxPacket> receive(DatagramSocket s) throws IOException {
        byte[] buf = new byte[65536];
        DatagramPacket d = new DatagramPacket(buf, buf.length);
        try {
            s.receive(d);
        } catch (SocketTimeoutException e) {
            return List.of();
        }
        return decode(buf, d.getLength());
    }

    private static void drain(DatagramSocket s) throws IOException {
        while (true) {
            List<RxPacket> ps = receive(s);
            if (ps.isEmpty()) {
                return;
            }
            ps.forEach(RxPacket::release);
        }
    }

    private static List<RxPacket> decode(byte[] buf, int length) {
        List<RxPacket> out = new ArrayList<>();
        ByteBuf b = Unpooled.copiedBuffer(buf, 0, length);
        try {
            if (PacketDecoder.decode(b, out) != null) {
                out.forEach(RxPacket::release);
                return List.of();
            }
        } finally {
            b.release();
        }
        return out;
    }

    private static int send(DatagramSocket s, InetSocketAddress to, RxPacket p) throws IOException {
        ByteBuf out = PacketEncoder.encode(p, UnpooledByteBufAllocator.DEFAULT);
        p.release();
        byte[] bytes = new byte[out.readableBytes()];
        out.readBytes(bytes);
        out.release();
        s.send(new DatagramPacket(bytes, bytes.length, to));
        return bytes.length;
    }
}
