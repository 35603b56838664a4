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
import java.util.Arrays;
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
 * Hostile-input probe (docs/robustness.md "Rule: progress, not activity, keeps a server call alive"), run by hand
 * against a live rxperf server; not a test. Opens {@code calls} server calls, one per connection, each an rxperf
 * RECV asking for {@code bytes} of reply (rx-wire-facts.md §10), then answers every PING with PING_RESPONSE (so the
 * client looks alive) but never acknowledges the reply: mode {@code none} sends no other ACK, mode {@code soft}
 * soft-acks every DATA received with firstPacket standing at 1 (an application that stopped reading). Prints, per
 * call, the ABORT code received and the seconds from the reply's first DATA to that ABORT, or that none came within
 * {@code seconds}. Run with the shaded rxperf jar on the class path:
 *
 * <pre>java -cp rx-perf/target/rxperf.jar scripts/hostile/StalledReader.java PORT [CALLS=20] [SECONDS=90]
 *     [MODE=none|soft] [BYTES=1048576]</pre>
 */
public final class StalledReader {
    private static final int SERVICE = 147;
    private static final int CID_BASE = 0x3000;

    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        int calls = args.length > 1 ? Integer.parseInt(args[1]) : 20;
        int seconds = args.length > 2 ? Integer.parseInt(args[2]) : 90;
        String mode = args.length > 3 ? args[3] : "none";
        int bytes = args.length > 4 ? Integer.parseInt(args[4]) : 1 << 20;
        if (!mode.equals("none") && !mode.equals("soft")) {
            throw new IllegalArgumentException("MODE is none or soft: " + mode);
        }
        boolean softAck = mode.equals("soft");
        InetAddress host = InetAddress.getLoopbackAddress();
        int epoch = 0x3BAD0000 | (int) (System.nanoTime() & 0xFFFF);
        int[] serials = new int[calls];
        long[] firstData = new long[calls];
        long[] abortAt = new long[calls];
        int[] abortCode = new int[calls];
        int[] dataPackets = new int[calls];
        int[] pings = new int[calls];
        int[] maxSeq = new int[calls];
        long start = System.nanoTime();
        try (DatagramSocket s = new DatagramSocket()) {
            for (int i = 0; i < calls; i++) {
                // rxperf RECV: version 3, command RECV (1), read and write chunk sizes, then the reply size.
                ByteBuf req = Unpooled.buffer(20).writeInt(3).writeInt(1).writeInt(524288).writeInt(524288)
                        .writeInt(bytes);
                RxHeader h = new RxHeader(epoch, CID_BASE + i * 4, 1, 1, ++serials[i], PacketType.DATA,
                        PacketFlags.CLIENT_INITIATED | PacketFlags.LAST_PACKET, 0, 0, 0, SERVICE);
                send(s, host, port, new DataPacket(h, req));
            }
            System.out.printf("sent %d rxperf RECV requests of %d bytes each (one connection each), mode %s%n",
                    calls, bytes, mode);
            s.setSoTimeout(200);
            long end = start + seconds * 1_000_000_000L;
            int ended = 0;
            byte[] buf = new byte[65536];
            while (ended < calls && System.nanoTime() - end < 0) {
                DatagramPacket d = new DatagramPacket(buf, buf.length);
                try {
                    s.receive(d);
                } catch (SocketTimeoutException e) {
                    continue;
                }
                long now = System.nanoTime();
                List<RxPacket> in = new ArrayList<>();
                if (PacketDecoder.decode(Unpooled.wrappedBuffer(d.getData(), 0, d.getLength()), in) != null) {
                    continue;
                }
                for (RxPacket p : in) {
                    RxHeader h = p.header();
                    int i = (h.cid() - CID_BASE) / 4;
                    if (i < 0 || i >= calls || abortAt[i] != 0) {
                        p.release();
                        continue;
                    }
                    if (p instanceof AckPacket a && a.reason() == AckReason.PING) {
                        send(s, host, port, ack(epoch, i, ++serials[i], 1, h.serial(), AckReason.PING_RESPONSE,
                                new byte[0]));
                        pings[i]++;
                    } else if (p instanceof DataPacket) {
                        if (firstData[i] == 0) {
                            firstData[i] = now;
                        }
                        dataPackets[i]++;
                        maxSeq[i] = Math.max(maxSeq[i], h.seq());
                        if (softAck) {
                            // Every seq received so far acknowledged softly; firstPacket never leaves 1.
                            byte[] acks = new byte[Math.min(maxSeq[i], 255)];
                            Arrays.fill(acks, (byte) 1);
                            send(s, host, port, ack(epoch, i, ++serials[i], 1, h.serial(), AckReason.REQUESTED,
                                    acks));
                        }
                    } else if (p instanceof AbortPacket ab) {
                        abortAt[i] = now;
                        abortCode[i] = ab.code();
                        ended++;
                    }
                    p.release();
                }
            }
        }
        Map<Integer, Integer> codes = new TreeMap<>();
        double min = Double.MAX_VALUE;
        double max = 0;
        for (int i = 0; i < calls; i++) {
            String first = firstData[i] == 0 ? "no DATA" : String.format("first DATA at +%.1f s",
                    (firstData[i] - start) / 1e9);
            if (abortAt[i] != 0) {
                double held = firstData[i] == 0 ? 0 : (abortAt[i] - firstData[i]) / 1e9;
                min = Math.min(min, held);
                max = Math.max(max, held);
                codes.merge(abortCode[i], 1, Integer::sum);
                System.out.printf("call %2d: ABORT %d %.1f s after the reply's first DATA (%s; %d DATA, %d PINGs "
                        + "answered)%n", i, abortCode[i], held, first, dataPackets[i], pings[i]);
            } else {
                System.out.printf("call %2d: no ABORT within %d s (%s; %d DATA, %d PINGs answered)%n", i, seconds,
                        first, dataPackets[i], pings[i]);
            }
        }
        int aborted = codes.values().stream().mapToInt(Integer::intValue).sum();
        System.out.printf("summary: %d of %d calls ended by ABORT, codes %s", aborted, calls, codes);
        if (aborted > 0) {
            System.out.printf(", %.1f..%.1f s from the reply's first DATA", min, max);
        }
        System.out.printf("; probe ran %.1f s%n", (System.nanoTime() - start) / 1e9);
    }

    /** An ACK from client call {@code i}: firstPacket as given, previousPacket 0, rwind 32. */
    private static AckPacket ack(int epoch, int i, int serial, int firstPacket, int ackSerial, int reason,
                                 byte[] acks) {
        RxHeader r = new RxHeader(epoch, CID_BASE + i * 4, 1, 0, serial, PacketType.ACK,
                PacketFlags.CLIENT_INITIATED, 0, 0, 0, SERVICE);
        return AckPacket.of(r, firstPacket, 0, ackSerial, reason, acks, 1444, 1444, 32, 1);
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
