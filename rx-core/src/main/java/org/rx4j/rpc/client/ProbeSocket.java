// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc.client;

import io.netty.channel.epoll.Epoll;
import io.netty.channel.unix.Errors;
import io.netty.channel.unix.Socket;
import java.io.Closeable;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.NoRouteToHostException;
import java.net.PortUnreachableException;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.util.Locale;
import org.rx4j.rpc.errors.RxException;

/**
 * A non-blocking UDP socket <em>connected</em> to one server, whose errors say whether that server is unreachable
 * (docs/embedding.md "A peer that does not answer"). The kernel reports an ICMP error to a connected UDP socket only
 * when it names that socket's own 5-tuple, so nothing but an answer to a packet this socket sent is acted on. Where
 * Netty's native library loads (Linux), the socket is Netty's native one with {@code IP_RECVERR} (and
 * {@code IPV6_RECVERR}) set, so that ICMP host and network unreachable reach it as well as port unreachable (without
 * it, Linux reports only the "hard" ICMP errors, such as port unreachable, to a connected UDP socket: ip(7),
 * {@code IP_RECVERR}); elsewhere a Java NIO {@link DatagramChannel}, which learns port unreachable and a missing route
 * only. Not thread-safe: the endpoint's event loop uses it.
 */
public abstract class ProbeSocket implements Closeable {
    /** Linux {@code SOL_IP} and {@code IP_RECVERR} (ip(7)). */
    private static final int SOL_IP = 0;
    private static final int IP_RECVERR = 11;
    /** Linux {@code SOL_IPV6} and {@code IPV6_RECVERR} (ipv6(7)). */
    private static final int SOL_IPV6 = 41;
    private static final int IPV6_RECVERR = 25;
    /** Linux errno values (errno(3)) of the errors that mean "unreachable". */
    private static final int ECONNREFUSED = 111;
    private static final int EHOSTUNREACH = 113;
    private static final int EHOSTDOWN = 112;
    private static final int ENETUNREACH = 101;
    /** Sockets opened at most while each came out connected to itself (one chance in ~28,000 per socket). */
    private static final int SELF_CONNECTED_RETRIES = 3;

    /**
     * Opens a socket connected to {@code server}; with the native socket, ICMP errors of every kind are reported.
     *
     * @param server the server's address
     * @return the open, connected socket
     * @throws IOException if it cannot be opened or connected; {@link #verdict} tells whether the connect's failure
     *     means the server cannot be reached (no route)
     */
    static ProbeSocket open(InetSocketAddress server) throws IOException {
        // connect() binds an ephemeral port, which may be the server's own when the server is a closed port on this
        // host that was just given up: the socket is then connected to itself, reads its own probe as an answer,
        // and a closed port would pass for a listening one (the dead time then applies). Open another.
        for (int attempt = 1; ; attempt++) {
            ProbeSocket s = Epoll.isAvailable() ? NativeProbe.open(server) : new NioProbe(server);
            if (attempt == SELF_CONNECTED_RETRIES || !server.equals(s.localAddress())) {
                return s;
            }
            s.close();
        }
    }

    /**
     * @return the address the socket is bound to
     * @throws IOException if the socket cannot tell
     */
    abstract InetSocketAddress localAddress() throws IOException;

    /**
     * Sends one datagram.
     *
     * @param datagram the bytes from position to limit (a direct buffer); the position is not moved
     * @throws IOException on failure, e.g. an ICMP error reported for an earlier datagram ({@link #verdict})
     */
    abstract void send(ByteBuffer datagram) throws IOException;

    /**
     * Reads one datagram if one waits, without blocking.
     *
     * @param into a direct buffer, written from its position
     * @return bytes read, 0 if none waits
     * @throws IOException an ICMP error the kernel reported for this socket's datagrams ({@link #verdict})
     */
    abstract int read(ByteBuffer into) throws IOException;

    /**
     * What an error of this socket means for its server.
     *
     * @param e an error from {@link #open}, {@link #send} or {@link #read}
     * @param connecting true when it came from {@link #open} (a connect fails only for a missing route)
     * @return {@link RxException.Reason#PEER_UNREACHABLE} (ECONNREFUSED: ICMP port unreachable),
     *     {@link RxException.Reason#HOST_UNREACHABLE} (EHOSTUNREACH, EHOSTDOWN: ICMP host unreachable),
     *     {@link RxException.Reason#NO_ROUTE} (ENETUNREACH, or any "unreachable" at connect), or null for any other
     *     error (e.g. EMSGSIZE from path MTU discovery), which says nothing about the server
     */
    public static RxException.Reason verdict(IOException e, boolean connecting) {
        int errno = errno(e);
        if (errno == ECONNREFUSED || e instanceof PortUnreachableException) {
            return RxException.Reason.PEER_UNREACHABLE;
        }
        if (errno == ENETUNREACH || (connecting && (errno == EHOSTUNREACH || e instanceof NoRouteToHostException))) {
            return RxException.Reason.NO_ROUTE; // a UDP connect only looks the route up: no route of any kind
        }
        if (errno == EHOSTUNREACH || errno == EHOSTDOWN || e instanceof NoRouteToHostException) {
            return RxException.Reason.HOST_UNREACHABLE;
        }
        return null;
    }

    /** @return the errno behind {@code e}: Netty's native errors carry it, the JDK's only its strerror text */
    private static int errno(IOException e) {
        if (e instanceof Errors.NativeIoException n) {
            return -n.expectedErr();
        }
        String m = e.getMessage() == null ? "" : e.getMessage().toLowerCase(Locale.ROOT);
        if (m.contains("connection refused")) {
            return ECONNREFUSED;
        }
        if (m.contains("network is unreachable")) {
            return ENETUNREACH;
        }
        if (m.contains("no route to host")) {
            return EHOSTUNREACH;
        }
        if (m.contains("host is down")) {
            return EHOSTDOWN;
        }
        return 0;
    }

    /** Netty's native socket with IP_RECVERR: every ICMP unreachable for its 5-tuple is reported. */
    private static final class NativeProbe extends ProbeSocket {
        private final Socket socket;

        private NativeProbe(Socket socket) {
            this.socket = socket;
        }

        static NativeProbe open(InetSocketAddress server) throws IOException {
            Socket s = Socket.newSocketDgram();
            try {
                s.setIntOpt(SOL_IP, IP_RECVERR, 1);
                try {
                    s.setIntOpt(SOL_IPV6, IPV6_RECVERR, 1);
                } catch (IOException e) {
                    // an IPv4-only socket: IP_RECVERR covers it
                }
                s.connect(server);
                return new NativeProbe(s);
            } catch (IOException | RuntimeException e) {
                s.close();
                throw e;
            }
        }

        @Override
        InetSocketAddress localAddress() throws IOException {
            return socket.localAddress();
        }

        @Override
        void send(ByteBuffer datagram) throws IOException {
            socket.send(datagram, datagram.position(), datagram.limit());
        }

        @Override
        int read(ByteBuffer into) throws IOException {
            return Math.max(socket.recv(into, into.position(), into.limit()), 0);
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }

    /** The JDK's datagram channel: ICMP port unreachable and a missing route only. */
    private static final class NioProbe extends ProbeSocket {
        private final DatagramChannel channel;

        NioProbe(InetSocketAddress server) throws IOException {
            DatagramChannel ch = DatagramChannel.open();
            try {
                ch.configureBlocking(false);
                ch.connect(server);
            } catch (IOException | RuntimeException e) {
                ch.close();
                throw e;
            }
            this.channel = ch;
        }

        @Override
        InetSocketAddress localAddress() throws IOException {
            return (InetSocketAddress) channel.getLocalAddress();
        }

        @Override
        void send(ByteBuffer datagram) throws IOException {
            channel.write(datagram.duplicate());
        }

        @Override
        int read(ByteBuffer into) throws IOException {
            return Math.max(channel.read(into), 0);
        }

        @Override
        public void close() throws IOException {
            channel.close();
        }
    }
}
