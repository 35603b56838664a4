// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.relay.bench;

import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Throughput measurement for the relay (not a test): a blaster sends fixed-size datagrams through the relay at a
 * paced rate (or as fast as it can) and a sink, bound at the relay's target, counts what arrives. Prints offered
 * and delivered Mbit/s and the loss. Run the relay in its own process (scripts/relay), then:
 * {@code java -cp rx-relay/target/test-classes org.rx4j.relay.bench.RelayBlast RELAY_PORT SINK_PORT SIZE MBITS SECONDS}
 * (MBITS 0 = unpaced). See docs/relay.md.
 */
public final class RelayBlast {
    private RelayBlast() {
    }

    /**
     * @param args relay port, sink port, datagram size (bytes), offered rate (Mbit/s of payload, 0 = unpaced),
     *             duration (s)
     * @throws Exception on socket errors
     */
    public static void main(String[] args) throws Exception {
        int relayPort = Integer.parseInt(args[0]);
        int sinkPort = Integer.parseInt(args[1]);
        int size = Integer.parseInt(args[2]);
        double mbits = Double.parseDouble(args[3]);
        double seconds = Double.parseDouble(args[4]);

        DatagramChannel sink = DatagramChannel.open();
        sink.setOption(StandardSocketOptions.SO_RCVBUF, 8 << 20);
        sink.bind(new InetSocketAddress("127.0.0.1", sinkPort));
        AtomicLong received = new AtomicLong();
        AtomicLong firstNs = new AtomicLong();
        AtomicLong lastNs = new AtomicLong();
        Thread sinkThread = new Thread(() -> {
            ByteBuffer buf = ByteBuffer.allocateDirect(65536);
            try {
                while (true) {
                    buf.clear();
                    sink.receive(buf);
                    long now = System.nanoTime();
                    if (received.getAndIncrement() == 0) {
                        firstNs.set(now);
                    }
                    lastNs.set(now);
                }
            } catch (Exception e) {
                // closed: done
            }
        }, "sink");
        sinkThread.setDaemon(true);
        sinkThread.start();

        DatagramChannel blaster = DatagramChannel.open();
        blaster.setOption(StandardSocketOptions.SO_SNDBUF, 8 << 20);
        blaster.connect(new InetSocketAddress("127.0.0.1", relayPort));
        ByteBuffer out = ByteBuffer.allocateDirect(size);
        double ns = mbits > 0 ? size * 8 / (mbits * 1e6) * 1e9 : 0; // ns per datagram
        long start = System.nanoTime();
        long end = start + (long) (seconds * 1e9);
        long sent = 0;
        long now;
        long burst = mbits > 0 ? Math.max(1, (long) (1_000_000 / ns)) : 64; // at most 1 ms of datagrams at once
        long skipped = 0;
        while ((now = System.nanoTime()) < end) {
            long due = mbits > 0 ? (long) ((now - start) / ns) + 1 - skipped : sent + 64;
            if (due - sent > burst) {
                // The blaster itself was descheduled: do not catch up with one long line-rate burst (it would
                // overflow the relay's receive buffer and measure the blaster's stall, not the relay).
                skipped += due - sent - burst;
                due = sent + burst;
            }
            while (sent < due) {
                out.clear();
                try {
                    blaster.write(out);
                } catch (java.net.PortUnreachableException e) {
                    continue; // an ICMP error from an earlier datagram (relay not up yet): not sent
                }
                sent++;
            }
            if (mbits > 0) {
                java.util.concurrent.locks.LockSupport.parkNanos(50_000); // pace in bursts; leave the CPU to the relay
            }
        }
        double sendSeconds = (System.nanoTime() - start) / 1e9;
        Thread.sleep(1000); // let the relay and the sink drain
        sink.close();
        long got = received.get();
        double recvSeconds = Math.max(1e-9, (lastNs.get() - firstNs.get()) / 1e9);
        System.out.printf(Locale.ROOT, "size %d B: offered %.1f Mbit/s (%d datagrams in %.2f s), delivered %.1f "
                        + "Mbit/s (%d datagrams over %.2f s), loss %.3f %%%n", size,
                sent * size * 8 / sendSeconds / 1e6, sent, sendSeconds, got * size * 8 / recvSeconds / 1e6, got,
                recvSeconds, 100.0 * (sent - got) / sent);
    }
}
