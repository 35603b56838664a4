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
 * The attacker of docs/robustness.md "Live probe: large held packets" (parked half): from one UDP port it proves
 * itself reachable to an rxkad rxperf server (answers the reachability PING of a first small DATA packet), then opens
 * CONNS rxkad connections (security index 2), each proving itself as the server asks (a small DATA packet 1, then
 * its PING answered), and sends each PACKETS more DATA packets (seq 2..PACKETS + 1 of that call) of BYTES payload
 * bytes, never answering a CHALLENGE, so the server parks them until it gives up; it answers every PING for HOLD
 * seconds. A server that answers a new rxkad connection's first DATA with a stateless CHALLENGE (the default with
 * reachability checks on) makes no connection for it, so nothing is parked: the probe then shows that. Run with the rxperf jar on the class path (it uses rx4j's codec only).
 *
 * <p>Usage: {@code java -cp rxperf.jar ParkedPackets.java PORT [CONNS [PACKETS [BYTES [HOLD]]]]} (defaults 200, 16,
 * 60000, 15).
 */
public final class ParkedPackets {
    private static final int SERVICE = 147;

    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        int conns = args.length > 1 ? Integer.parseInt(args[1]) : 200;
        int packets = args.length > 2 ? Integer.parseInt(args[2]) : 16;
        int bytes = args.length > 3 ? Integer.parseInt(args[3]) : 60_000;
        int seconds = args.length > 4 ? Integer.parseInt(args[4]) : 15;
        InetAddress host = InetAddress.getLoopbackAddress();
        int epoch = 0x2BAD0000 | (int) (System.nanoTime() & 0xFFFF);
        int[] serial = {0};
        int[] counts = new int[3]; // PINGs answered, CHALLENGEs ignored, ABORTs
        try (DatagramSocket s = new DatagramSocket()) {
            s.setSoTimeout(10); // listen() checks its own end only between receives
            // Prove the port: a small first packet, then answer the PING it brings.
            send(s, host, port, data(epoch, 0x1000, 1, ++serial[0], 0, 16));
            listen(s, host, port, epoch, serial, counts, 1_000);
            for (int c = 1; c <= conns; c++) {
                // A proof belongs to its connection: each one answers its own PING before it exists. A server with
                // the stateless rxkad CHALLENGE sends that instead of the PING (docs/robustness.md): the wait ends
                // at either, and the connection then never exists.
                int answered = counts[0] + counts[1];
                send(s, host, port, data(epoch, 0x1000 + 4 * c, 1, ++serial[0], 0, 16));
                for (int w = 0; w < 50 && counts[0] + counts[1] == answered; w++) {
                    listen(s, host, port, epoch, serial, counts, 10);
                }
                for (int seq = 2; seq <= packets + 1; seq++) {
                    send(s, host, port, data(epoch, 0x1000 + 4 * c, seq, ++serial[0], 0, bytes));
                }
            }
            System.out.printf("sent %d rxkad connections x %d DATA of %d bytes from one proven port%n", conns,
                    packets, bytes);
            listen(s, host, port, epoch, serial, counts, seconds * 1000L);
            System.out.printf("after %d s: %d PINGs answered, %d CHALLENGEs ignored, %d ABORTs%n", seconds, counts[0],
                    counts[1], counts[2]);
        }
    }

    private static DataPacket data(int epoch, int cid, int seq, int serial, int flags, int bytes) {
        RxHeader h = new RxHeader(epoch, cid, 1, seq, serial, PacketType.DATA, PacketFlags.CLIENT_INITIATED | flags,
                0, 2, 0, SERVICE);
        return new DataPacket(h, Unpooled.buffer(bytes).writeZero(bytes));
    }

    /** Answers every PING for {@code ms} milliseconds; counts CHALLENGEs (never answered) and ABORTs. */
    private static void listen(DatagramSocket s, InetAddress host, int port, int epoch, int[] serial, int[] counts,
            long ms) throws Exception {
        long end = System.nanoTime() + ms * 1_000_000L;
        byte[] buf = new byte[65536];
        while (System.nanoTime() - end < 0) {
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
                if (p instanceof AckPacket a && h.hasFlag(PacketFlags.REQUEST_ACK)) {
                    RxHeader r = new RxHeader(epoch, h.cid(), h.callNumber(), 0, ++serial[0], PacketType.ACK,
                            PacketFlags.CLIENT_INITIATED, 0, 2, 0, SERVICE);
                    send(s, host, port, AckPacket.of(r, a.firstPacket(), 0, h.serial(), AckReason.PING_RESPONSE,
                            new byte[0], 1444, 1444, 32, 1));
                    counts[0]++;
                } else if (h.type() == PacketType.CHALLENGE) {
                    counts[1]++;
                } else if (h.type() == PacketType.ABORT) {
                    counts[2]++;
                }
                p.release();
            }
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
