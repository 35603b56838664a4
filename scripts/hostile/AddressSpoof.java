// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

import io.netty.buffer.ByteBuf;
import io.netty.buffer.UnpooledByteBufAllocator;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.rx4j.rpc.RxCall;
import org.rx4j.rpc.RxConnection;
import org.rx4j.rpc.RxConnectionId;
import org.rx4j.rpc.RxEndpoint;
import org.rx4j.rpc.errors.RxException;
import org.rx4j.wire.AbortPacket;
import org.rx4j.wire.AckPacket;
import org.rx4j.wire.AckReason;
import org.rx4j.wire.PacketEncoder;
import org.rx4j.wire.PacketFlags;
import org.rx4j.wire.PacketType;
import org.rx4j.wire.RxHeader;
import org.rx4j.wire.RxPacket;

/**
 * Hostile-input probe, run by hand against a live rxperf server on loopback; not a test. A legitimate rx4j client
 * endpoint makes an rxperf RECV call asking for {@code bytes}; once it has read 1 MiB, a second UDP socket on a
 * fresh port sends packets carrying that call's epoch, cid and callNumber (docs/robustness.md, "Rule: a server
 * connection's address never moves on an unauthenticated packet" and "Rule: a client connection hears only its
 * server's address"):
 *
 * <ul>
 *   <li>{@code ack}: a 65-byte PING ACK to the server, as the call's client (CLIENT_INITIATED), every 2 s while the
 *       call runs;</li>
 *   <li>{@code abort}: three ABORTs with code -1 to the legitimate client's own port, as the call's server.</li>
 * </ul>
 *
 * <p>Prints what the spoofing socket sent and received, and how the legitimate call ended. Run with the shaded
 * rxperf jar on the class path:
 *
 * <pre>java -cp rx-perf/target/rxperf.jar scripts/hostile/AddressSpoof.java ack|abort PORT [BYTES=200000000] [SECONDS=20]</pre>
 */
public final class AddressSpoof {
    private static final int SERVICE = 147;
    private static final int RECV = 1;
    private static final int CHUNK = 524288;

    public static void main(String[] args) throws Exception {
        String mode = args[0];
        int port = Integer.parseInt(args[1]);
        int bytes = args.length > 2 ? Integer.parseInt(args[2]) : 200_000_000;
        int seconds = args.length > 3 ? Integer.parseInt(args[3]) : 20;
        InetAddress host = InetAddress.getLoopbackAddress();
        InetSocketAddress server = new InetSocketAddress(host, port);
        try (RxEndpoint client = RxEndpoint.builder().bind(new InetSocketAddress(host, 0)).open();
             DatagramSocket spoofer = new DatagramSocket(new InetSocketAddress(host, 0))) {
            RxConnection conn = client.connect(server, SERVICE);
            RxCall call = conn.newCall();
            call.setDeadline(Duration.ofSeconds(seconds));
            OutputStream out = call.output();
            out.write(ByteBuffer.allocate(20).putInt(3).putInt(RECV).putInt(CHUNK).putInt(CHUNK).putInt(bytes)
                    .array());
            out.close();
            AtomicLong read = new AtomicLong();
            CountDownLatch started = new CountDownLatch(1);
            String[] outcome = new String[1];
            long t0 = System.nanoTime();
            Thread reader = new Thread(() -> outcome[0] = readAll(call.input(), read, started, t0));
            reader.start();
            if (!started.await(seconds, TimeUnit.SECONDS)) {
                System.out.println("the call never got 1 MiB: " + outcome[0]);
                return;
            }
            RxConnectionId id = conn.id();
            int cid = id.cid() | call.channel();
            System.out.printf("legitimate client %s, call epoch %08x cid %08x callNumber %d; spoofer %s%n",
                    client.localAddress().getPort(), id.epoch(), cid, call.callNumber(),
                    spoofer.getLocalPort());
            spoofer.setSoTimeout(100);
            long sentBytes = 0;
            int sentPackets = 0;
            long gotBytes = 0;
            int gotDatagrams = 0;
            int serial = 0x10000;
            long nextSpoof = System.nanoTime();
            int aborts = 0;
            byte[] buf = new byte[65536];
            while (reader.isAlive() && System.nanoTime() - t0 < seconds * 1_000_000_000L) {
                if (mode.equals("ack") && System.nanoTime() - nextSpoof >= 0) {
                    RxHeader h = new RxHeader(id.epoch(), cid, call.callNumber(), 0, ++serial, PacketType.ACK,
                            PacketFlags.CLIENT_INITIATED | PacketFlags.REQUEST_ACK, 0, 0, 0, SERVICE);
                    sentBytes += send(spoofer, server, AckPacket.of(h, 1, 0, 0, AckReason.PING, new byte[0],
                            1444, 1444, 32, 1));
                    sentPackets++;
                    nextSpoof += 2_000_000_000L;
                } else if (mode.equals("abort") && aborts < 3) {
                    InetSocketAddress victim = new InetSocketAddress(host, client.localAddress().getPort());
                    RxHeader h = new RxHeader(id.epoch(), cid, call.callNumber(), 0, ++serial, PacketType.ABORT,
                            0, 0, 0, 0, SERVICE);
                    sentBytes += send(spoofer, victim, new AbortPacket(h, -1));
                    sentPackets++;
                    aborts++;
                }
                DatagramPacket d = new DatagramPacket(buf, buf.length);
                try {
                    spoofer.receive(d);
                    gotBytes += d.getLength();
                    gotDatagrams++;
                } catch (SocketTimeoutException e) {
                    // nothing this round
                }
            }
            reader.join(TimeUnit.SECONDS.toMillis(seconds));
            System.out.printf("spoofer: sent %d packets (%d bytes), received %d datagrams (%d bytes)%n",
                    sentPackets, sentBytes, gotDatagrams, gotBytes);
            System.out.printf("legitimate call: %s; %d of %d bytes read (payload + 4-byte cookie)%n", outcome[0],
                    read.get(), bytes + 4L);
            System.out.println("client stats: clientPacketsFromStrangers="
                    + client.stats().get("clientPacketsFromStrangers"));
        }
    }

    /** Reads the reply (payload and cookie) to its end; counts down {@code started} after 1 MiB. */
    private static String readAll(InputStream in, AtomicLong read, CountDownLatch started, long t0) {
        byte[] b = new byte[65536];
        try {
            int n;
            while ((n = in.read(b)) >= 0) {
                if (read.addAndGet(n) >= 1 << 20) {
                    started.countDown();
                }
            }
            return String.format("completed after %d ms", (System.nanoTime() - t0) / 1_000_000);
        } catch (RxException e) {
            return String.format("failed with code %d after %d ms", e.code(), (System.nanoTime() - t0) / 1_000_000);
        } catch (IOException e) {
            return "failed: " + e;
        } finally {
            started.countDown();
        }
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
