// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.relay.cli;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.util.concurrent.locks.LockSupport;
import org.rx4j.relay.ImpairmentRelay;
import org.rx4j.relay.TransportChoice;
import org.rx4j.relay.core.Impairment;

/**
 * Warms the JIT before the real relay binds: runs a throw-away relay (1 ms delay each way) between two loopback
 * sockets of its own for a few seconds at about 200 Mbit/s, with an echoing sink so both directions run. Without
 * it, the first seconds of a run are relay-bound while the JIT compiles the read, timer and write paths (seen as
 * relay-receive drops on a loaded 2-core machine).
 */
final class RelayWarmup {
    private static final double RATE_BITS = 200e6;
    private static final int[] SIZES = {1444, 9000};

    private RelayWarmup() {
    }

    /**
     * @param seconds how long to push traffic, s (> 0)
     * @param transport the transport the real relay will use
     * @throws IOException if the loopback sockets cannot be opened
     */
    static void run(double seconds, TransportChoice transport) throws IOException {
        InetAddress loopback = InetAddress.getLoopbackAddress();
        try (DatagramChannel sink = DatagramChannel.open(); DatagramChannel client = DatagramChannel.open()) {
            sink.bind(new InetSocketAddress(loopback, 0));
            sink.setOption(StandardSocketOptions.SO_RCVBUF, 4 << 20);
            Impairment oneMs = Impairment.builder().delayMs(1).build();
            try (ImpairmentRelay relay = ImpairmentRelay.builder().listen(new InetSocketAddress(loopback, 0))
                    .target((InetSocketAddress) sink.getLocalAddress()).both(oneMs).transport(transport).seed(0)
                    .warnings(line -> { }).start()) {
                Thread echo = new Thread(() -> echo(sink), "relay-warmup-echo");
                echo.setDaemon(true);
                echo.start();
                client.connect(relay.listenAddress());
                blast(client, seconds);
            }
        }
    }

    private static void echo(DatagramChannel sink) {
        ByteBuffer buf = ByteBuffer.allocateDirect(65536);
        try {
            while (true) {
                buf.clear();
                var from = sink.receive(buf);
                buf.flip();
                sink.send(buf, from);
            }
        } catch (IOException e) {
            // closed at the end of the warm-up
        }
    }

    private static void blast(DatagramChannel client, double seconds) throws IOException {
        ByteBuffer[] payloads = new ByteBuffer[SIZES.length];
        for (int i = 0; i < SIZES.length; i++) {
            payloads[i] = ByteBuffer.allocateDirect(SIZES[i]);
        }
        long start = System.nanoTime();
        long end = start + (long) (seconds * 1e9);
        double bits = 0;
        long now;
        int n = 0;
        while ((now = System.nanoTime()) < end) {
            double due = (now - start) / 1e9 * RATE_BITS;
            while (bits < due) {
                ByteBuffer p = payloads[n++ % payloads.length];
                p.clear();
                try {
                    client.write(p);
                } catch (java.net.PortUnreachableException e) {
                    // an ICMP error for an earlier datagram: ignore, it is only warm-up traffic
                }
                bits += p.capacity() * 8.0;
            }
            LockSupport.parkNanos(100_000);
        }
    }
}
