// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.netty.channel.epoll.Epoll;
import io.netty.channel.unix.Errors;
import java.io.IOException;
import java.net.ConnectException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NoRouteToHostException;
import java.net.PortUnreachableException;
import java.net.SocketException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.rx4j.rpc.client.PeerUnreachable;
import org.rx4j.rpc.client.ProbeSocket;
import org.rx4j.rpc.client.UnreachableProbe;
import org.rx4j.rpc.errors.RxCodes;
import org.rx4j.rpc.errors.RxException;
import org.rx4j.testing.LeakCheckExtension;
import org.rx4j.testing.ManualClock;

/**
 * A server that dies during a call is noticed by the connection's re-probe when the call stalls, not after the dead
 * time (docs/embedding.md "A peer that does not answer"): a loopback "server" that answers the first call's probe
 * and then closes its port fails the call with PEER_UNREACHABLE although the client's clock moved only past the
 * stall time (1 s of its 12 s dead time). And what each socket error means (port, host, no route), with the
 * message each verdict carries. Asserts outcomes, not elapsed time.
 */
@Timeout(60)
@ExtendWith(LeakCheckExtension.class)
class DeadPeerTest {
    /** A UDP port that answers Rx VERSION requests (type 13) with a datagram and ignores everything else. */
    private static Thread answerVersionOnly(DatagramSocket s) {
        Thread t = new Thread(() -> {
            byte[] buf = new byte[2048];
            try {
                while (true) {
                    DatagramPacket in = new DatagramPacket(buf, buf.length);
                    s.receive(in);
                    if (in.getLength() >= 28 && buf[20] == 13) {
                        s.send(new DatagramPacket(buf, in.getLength(), in.getSocketAddress()));
                    }
                }
            } catch (IOException closed) {
                // the socket closed: the "server" died
            }
        }, "version-only");
        t.setDaemon(true);
        t.start();
        return t;
    }

    @Test
    void aServerThatDiesDuringACallIsNoticedWhenTheCallStalls() throws Exception {
        ManualClock clock = new ManualClock();
        DatagramSocket server = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        Thread answering = answerVersionOnly(server);
        try (RxEndpoint client = RxEndpoint.builder().clock(clock)
                .bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0)).open()) {
            RxConnection conn = client.connect((InetSocketAddress) server.getLocalSocketAddress(), 4242);
            CompletableFuture<byte[]> f = conn.callAsync(new byte[] {0, 0, 0, 1});
            long giveUp = System.nanoTime() + TimeUnit.SECONDS.toNanos(20); // a hang guard, not a timing
            while (client.runtime().probes.due(conn.server(), clock.getAsLong()) && System.nanoTime() < giveUp) {
                Thread.onSpinWait(); // the first call's probe has not been answered yet
            }
            assertFalse(client.runtime().probes.due(conn.server(), clock.getAsLong()), "the first probe was answered");
            server.close(); // killed: its port now answers with ICMP port unreachable
            answering.join();
            assertFalse(f.isDone());

            clock.advance(Duration.ofSeconds(1)); // past the stall time (500 ms), far from the 12 s dead time
            ExecutionException e = assertThrows(ExecutionException.class, () -> f.get(20, TimeUnit.SECONDS));
            RxException rx = assertInstanceOf(RxException.class, e.getCause());
            assertEquals(RxCodes.RX_CALL_DEAD, rx.code());
            assertFalse(rx.remote());
            assertEquals(RxException.Reason.PEER_UNREACHABLE, rx.reason(), rx.getMessage());
            assertTrue(rx.getMessage().contains("port unreachable"), rx.getMessage());
        } finally {
            server.close();
        }
    }

    @Test
    void anIpv6ClosedPortIsPortUnreachableToo() throws Exception {
        InetSocketAddress closed;
        try (DatagramSocket s = new DatagramSocket(new InetSocketAddress(InetAddress.getByName("::1"), 0))) {
            closed = (InetSocketAddress) s.getLocalSocketAddress(); // bound, then closed: nothing listens there
        } catch (SocketException e) {
            assumeTrue(false, "no IPv6 loopback here: " + e);
            return;
        }
        try (RxEndpoint client = RxEndpoint.builder().clock(new ManualClock())
                .bind(new InetSocketAddress(InetAddress.getByName("::1"), 0)).open()) {
            CompletableFuture<byte[]> f = client.connect(closed, 4242).callAsync(new byte[] {0, 0, 0, 1});
            ExecutionException e = assertThrows(ExecutionException.class, () -> f.get(20, TimeUnit.SECONDS));
            RxException rx = assertInstanceOf(RxException.class, e.getCause());
            assertEquals(RxException.Reason.PEER_UNREACHABLE, rx.reason(), rx.getMessage());
        }
    }

    @Test
    void socketErrorsSayWhichPartOfThePathIsGone() {
        assertEquals(RxException.Reason.PEER_UNREACHABLE,
                ProbeSocket.verdict(new PortUnreachableException("recv"), false));
        assertEquals(RxException.Reason.NO_ROUTE,
                ProbeSocket.verdict(new SocketException("Network is unreachable"), true));
        assertEquals(RxException.Reason.NO_ROUTE, ProbeSocket.verdict(new NoRouteToHostException("connect"), true));
        assertEquals(RxException.Reason.HOST_UNREACHABLE,
                ProbeSocket.verdict(new NoRouteToHostException("No route to host"), false));
        assertEquals(RxException.Reason.PEER_UNREACHABLE,
                ProbeSocket.verdict(new ConnectException("Connection refused"), false));
        assertNull(ProbeSocket.verdict(new SocketException("Message too long"), false), "EMSGSIZE says nothing");
        assumeTrue(Epoll.isAvailable(), "Netty's native errors need its native library");
        assertEquals(RxException.Reason.PEER_UNREACHABLE,
                ProbeSocket.verdict(new Errors.NativeIoException("recv", -111), false));
        assertEquals(RxException.Reason.HOST_UNREACHABLE,
                ProbeSocket.verdict(new Errors.NativeIoException("recv", -113), false));
        assertEquals(RxException.Reason.HOST_UNREACHABLE,
                ProbeSocket.verdict(new Errors.NativeIoException("recv", -112), false));
        assertEquals(RxException.Reason.NO_ROUTE,
                ProbeSocket.verdict(new Errors.NativeIoException("recv", -101), false));
        assertNull(ProbeSocket.verdict(new Errors.NativeIoException("recv", -90), false), "EMSGSIZE");
    }

    @Test
    void eachVerdictNamesTheServerAndWhatWasSeen() throws Exception {
        InetSocketAddress at = new InetSocketAddress(InetAddress.getByName("10.99.0.9"), 7009);
        PeerUnreachable port = UnreachableProbe.verdict(RxException.Reason.PEER_UNREACHABLE, at,
                new PortUnreachableException());
        assertTrue(port.message().startsWith("port unreachable: nothing listens at "), port.message());
        PeerUnreachable host = UnreachableProbe.verdict(RxException.Reason.HOST_UNREACHABLE, at,
                new NoRouteToHostException());
        assertTrue(host.message().startsWith("host unreachable: 10.99.0.9 does not answer"), host.message());
        PeerUnreachable route = UnreachableProbe.verdict(RxException.Reason.NO_ROUTE, at,
                new SocketException("Network is unreachable"));
        assertEquals("no route to 10.99.0.9 (Network is unreachable)", route.message());
    }
}
