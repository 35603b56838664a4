// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc.debug;

import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.rx4j.security.SecurityStats;
import org.rx4j.wire.DebugConn;
import org.rx4j.wire.DebugPeer;
import org.rx4j.wire.DebugRequest;
import org.rx4j.wire.DebugStats;
import org.rx4j.wire.RxConstants;
import org.rx4j.wire.RxStatistics;

/**
 * A client of an Rx server's DEBUG and VERSION packets: the questions OpenAFS's {@code rxdebug} asks (rx-wire-facts.md
 * §9). Connectionless: one UDP socket, one request per question (epoch 999, cid 0, a call number counting up from
 * 101, flags CLIENT_INITIATED | LAST_PACKET), retried after 1, 2, 4 and 8 s. Not thread-safe: one question at a time.
 * Any Rx server answers, OpenAFS's or rx4j's (an rx4j endpoint answers as its {@code RxConfig} debug-replies setting
 * allows).
 */
public final class RxDebugClient implements AutoCloseable {
    private static final int HEADER = 28;
    private static final int EPOCH = 999;
    private static final int TYPE_DEBUG = 8;
    private static final int TYPE_VERSION = 13;
    private static final int FLAGS = 0x05;    // CLIENT_INITIATED | LAST_PACKET
    /** The version string's field: 65 bytes, of which rxdebug prints at most 63, up to the first NUL. */
    private static final int VERSION_CHARS = 63;
    private static final int[] RETRY_MS = {1000, 2000, 4000, 8000};

    private final String host;
    private final int port;
    private final InetSocketAddress server;
    private final DatagramSocket socket;
    private int callNumber = 101;

    private RxDebugClient(String host, int port, InetSocketAddress server, DatagramSocket socket) {
        this.host = host;
        this.port = port;
        this.server = server;
        this.socket = socket;
    }

    /**
     * Resolves the server's name and opens the client's socket (an ephemeral UDP port).
     *
     * @param host the server's name or address literal
     * @param port the server's UDP port
     * @return the client; close it
     * @throws java.net.UnknownHostException if {@code host} does not resolve
     * @throws IOException if no UDP socket can be opened
     */
    public static RxDebugClient open(String host, int port) throws IOException {
        InetSocketAddress server = new InetSocketAddress(InetAddress.getByName(host), port);
        return new RxDebugClient(host, port, server, new DatagramSocket());
    }

    /** @return the server's resolved address and port */
    public InetSocketAddress server() {
        return server;
    }

    /**
     * Asks VERSION.
     *
     * @return the server's version string, up to its first NUL and at most 63 characters (ISO-8859-1)
     * @throws IOException "no answer from HOST port PORT" after the last retry, or a socket error
     */
    public String version() throws IOException {
        byte[] body = ask(TYPE_VERSION, new byte[1]);
        int end = 0;
        while (end < Math.min(body.length, VERSION_CHARS) && body[end] != 0) {
            end++;
        }
        return new String(body, 0, end, StandardCharsets.ISO_8859_1);
    }

    /**
     * Asks GETSTATS.
     *
     * @return the server's packet pool and thread counts
     * @throws IOException "short GETSTATS reply" if the answer is shorter than the struct, "no answer from HOST port
     *     PORT" after the last retry, or a socket error
     */
    public ServerStatus serverStatus() throws IOException {
        DebugStats s = DebugStats.decode(debug(DebugRequest.GETSTATS, 0));
        if (s == null) {
            throw new IOException("short GETSTATS reply");
        }
        return new ServerStatus(s.nFreePackets(), s.nPackets(), s.packetReclaims(), s.callsExecuted(), s.usedFDs(),
                s.waitingForPackets() != 0, s.nWaiting(), s.idleThreads(), s.nWaited());
    }

    /**
     * Asks RXSTATS.
     *
     * @return the server's struct rx_statistics
     * @throws IOException "short RXSTATS reply: N bytes" if the answer is shorter than the struct, "no answer from
     *     HOST port PORT" after the last retry, or a socket error
     */
    public RxStats rxStats() throws IOException {
        byte[] body = debug(DebugRequest.RXSTATS, 0);
        RxStatistics s = RxStatistics.decode(body);
        if (s == null) {
            throw new IOException("short RXSTATS reply: " + body.length + " bytes");
        }
        return new RxStats(s);
    }

    /**
     * Asks GETCONN (connections with calls) or GETALLCONN (every connection) for one index. The server walks its
     * table by index, so a listing taken while connections come and go is no snapshot.
     *
     * @param index 0-based
     * @param all true for GETALLCONN
     * @return the connection, or empty past the last one (or when the answer is shorter than the struct)
     * @throws IOException "no answer from HOST port PORT" after the last retry, or a socket error
     */
    public Optional<ConnectionInfo> connection(int index, boolean all) throws IOException {
        DebugConn c = DebugConn.decode(debug(all ? DebugRequest.GETALLCONN : DebugRequest.GETCONN, index));
        if (c == null || c.isEnd()) {
            return Optional.empty();
        }
        List<ConnectionInfo.Channel> channels = new ArrayList<>();
        for (int ch = 0; ch < RxConstants.MAX_CALLS; ch++) {
            channels.add(new ConnectionInfo.Channel(c.callNumber(ch), c.callState(ch), c.callMode(ch)));
        }
        long[] counters = c.secStatsCounters();
        SecurityStats security = new SecurityStats(c.secStatsType(), c.secStatsLevel(), c.secStatsFlags(),
                c.secStatsExpires(), counters[0], counters[1], counters[2], counters[3]);
        return Optional.of(new ConnectionInfo(c.host(), c.port(), c.epoch(), c.cid(), c.serial(), c.error(),
                c.securityIndex(), c.type() == DebugConn.TYPE_SERVER, c.natMTU(), channels, security));
    }

    /**
     * Asks GETPEER for one index.
     *
     * @param index 0-based
     * @return the peer, or empty past the last one (or when the answer is shorter than the struct)
     * @throws IOException "no answer from HOST port PORT" after the last retry, or a socket error
     */
    public Optional<PeerInfo> peer(int index) throws IOException {
        DebugPeer p = DebugPeer.decode(debug(DebugRequest.GETPEER, index));
        if (p == null || p.isEnd()) {
            return Optional.empty();
        }
        return Optional.of(new PeerInfo(p.host(), p.port(), p.ifMTU(), p.natMTU(), p.maxMTU(), p.nSent(),
                p.reSends(), p.bytesSent(), p.bytesReceived(), p.rtt(), p.rttDev(), p.timeoutSec(), p.timeoutUsec()));
    }

    /** Closes the socket. */
    @Override
    public void close() {
        socket.close();
    }

    private byte[] debug(int type, int index) throws IOException {
        return ask(TYPE_DEBUG, ByteBuffer.allocate(DebugRequest.SIZE).putInt(type).putInt(index).array());
    }

    /** Sends one DEBUG or VERSION request, retrying; returns the reply body (bytes after the 28-byte header). */
    private byte[] ask(int packetType, byte[] body) throws IOException {
        int number = callNumber++;
        ByteBuffer request = ByteBuffer.allocate(HEADER + body.length);
        request.putInt(EPOCH).putInt(0).putInt(number).putInt(0).putInt(0)
                .put((byte) packetType).put((byte) FLAGS).put((byte) 0).put((byte) 0).putShort((short) 0)
                .putShort((short) 0).put(body);
        DatagramPacket send = new DatagramPacket(request.array(), request.capacity(), server);
        byte[] buffer = new byte[2048];
        for (int wait : RETRY_MS) {
            socket.send(send);
            long end = System.nanoTime() + wait * 1_000_000L;
            while (true) {
                long left = (end - System.nanoTime()) / 1_000_000L;
                if (left <= 0) {
                    break;
                }
                socket.setSoTimeout((int) left);
                DatagramPacket reply = new DatagramPacket(buffer, buffer.length);
                try {
                    socket.receive(reply);
                } catch (SocketTimeoutException e) {
                    break;
                }
                ByteBuffer r = ByteBuffer.wrap(buffer, 0, reply.getLength());
                if (reply.getLength() >= HEADER && r.getInt(8) == number && (buffer[20] & 0xff) == packetType) {
                    return Arrays.copyOfRange(buffer, HEADER, reply.getLength());
                }
            }
        }
        throw new IOException("no answer from " + host + " port " + port);
    }
}
