// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.locks.LockSupport;

/**
 * Flood generator for scripts/flood.sh (docs/robustness.md "Flood") and scripts/hostile/flood.sh (docs/robustness.md
 * "Live probe: connection flood"): a measuring tool, not a test. Sends, from many 127/8 source addresses,
 * new-connection Rx DATA packets (seq 1 of a request to service 147, each with a fresh epoch and cid, so every one
 * asks the server for a new connection) and garbage datagrams (random bytes), each at its own rate, for a given time.
 * Single-file program:
 *
 * <pre>java scripts/flood/FloodGenerator.java HOST PORT DATA_PPS GARBAGE_PPS SECONDS SOURCES [PAYLOAD [last]]</pre>
 *
 * <p>PAYLOAD is the DATA packet's body, bytes (default and minimum 4: the opcode word, 3, then zeros); {@code last}
 * sets LAST_PACKET, so each DATA packet is a whole one-packet request. Prints one line: datagrams sent of each kind
 * and the achieved rates. Uses only the JDK (no rx4j code), so it measures the endpoint, not a shared library.
 */
public final class FloodGenerator {
    /** How long to sleep when ahead of schedule, ns (0 = spin, the old behaviour: FLOOD_PARK_NS=0). */
    private static final long PARK_NS = Long.parseLong(System.getenv().getOrDefault("FLOOD_PARK_NS", "20000"));
    public static void main(String[] args) throws IOException {
        if (args.length < 6 || args.length > 8 || args.length == 8 && !"last".equals(args[7])) {
            System.err.println("usage: FloodGenerator HOST PORT DATA_PPS GARBAGE_PPS SECONDS SOURCES [PAYLOAD [last]]");
            System.exit(2);
        }
        InetSocketAddress target = new InetSocketAddress(args[0], Integer.parseInt(args[1]));
        long dataPps = Long.parseLong(args[2]);
        long garbagePps = Long.parseLong(args[3]);
        long seconds = Long.parseLong(args[4]);
        int sources = Integer.parseInt(args[5]);
        int payload = args.length > 6 ? Math.max(4, Integer.parseInt(args[6])) : 4;
        byte flags = (byte) (args.length > 7 ? 0x01 | 0x04 : 0x01); // CLIENT_INITIATED, LAST_PACKET if asked
        List<DatagramChannel> channels = new ArrayList<>();
        for (int i = 0; i < sources; i++) {
            // 127.(1..).x.y: any 127/8 address is local on Linux.
            String addr = "127." + (1 + i / 65536) + "." + ((i / 256) % 256) + "." + (1 + i % 254);
            DatagramChannel ch = DatagramChannel.open();
            ch.bind(new InetSocketAddress(addr, 0));
            ch.configureBlocking(false);
            channels.add(ch);
        }
        Random random = new Random(12);
        ByteBuffer data = ByteBuffer.allocateDirect(28 + payload);
        ByteBuffer junk = ByteBuffer.allocateDirect(128);
        long start = System.nanoTime();
        long end = start + seconds * 1_000_000_000L;
        long sentData = 0;
        long sentJunk = 0;
        long dropped = 0;
        int next = 0;
        int cid = 0;
        while (true) {
            long now = System.nanoTime();
            if (now - end >= 0) {
                break;
            }
            double elapsed = (now - start) / 1e9;
            boolean any = false;
            if (sentData < dataPps * elapsed) {
                data.clear();
                data.putInt(0x80000000 | random.nextInt()); // epoch
                data.putInt((cid += 4) & ~3); // cid, channel 0
                data.putInt(1); // callNumber
                data.putInt(1); // seq
                data.putInt(1); // serial
                data.put((byte) 1); // DATA
                data.put(flags);
                data.put((byte) 0); // userStatus
                data.put((byte) 0); // securityIndex
                data.putShort((short) 0); // spare
                data.putShort((short) 147); // service
                data.putInt(3); // opcode
                while (data.hasRemaining()) {
                    data.put((byte) 0);
                }
                data.flip();
                if (channels.get(next++ % sources).send(data, target) == 0) {
                    dropped++;
                }
                sentData++;
                any = true;
            }
            if (sentJunk < garbagePps * elapsed) {
                junk.clear();
                int len = 1 + random.nextInt(100);
                for (int i = 0; i < len; i++) {
                    junk.put((byte) random.nextInt());
                }
                junk.flip();
                if (channels.get(next++ % sources).send(junk, target) == 0) {
                    dropped++;
                }
                sentJunk++;
                any = true;
            }
            if (!any) {
                // Ahead of schedule: sleep rather than spin, so the generator uses only the CPU its sends cost and
                // the rest of its core stays with the machine (on two cores the legitimate client needs it).
                // Sleeps last ~60 us (timer slack), so datagrams leave in bursts of ~10 of each kind.
                if (PARK_NS > 0) {
                    LockSupport.parkNanos(PARK_NS);
                } else {
                    Thread.onSpinWait();
                }
            }
        }
        double secs = (System.nanoTime() - start) / 1e9;
        System.out.printf("flood: %d new-connection DATA (%.0f/s), %d garbage (%.0f/s), %d not sent (socket full), "
                + "%.1f s, %d sources%n", sentData, sentData / secs, sentJunk, sentJunk / secs, dropped, secs, sources);
    }
}
