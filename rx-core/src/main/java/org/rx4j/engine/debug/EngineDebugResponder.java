// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine.debug;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.net.Inet4Address;
import java.net.InetSocketAddress;
import java.util.Collection;
import java.util.List;
import org.rx4j.counters.RxCounter;
import org.rx4j.engine.call.Call;
import org.rx4j.engine.call.CallState;
import org.rx4j.engine.connection.Connection;
import org.rx4j.engine.peer.Peer;
import org.rx4j.engine.recovery.RttEstimator;
import org.rx4j.engine.telemetry.RxCounters;
import org.rx4j.security.SecurityStats;
import org.rx4j.wire.DebugConn;
import org.rx4j.wire.DebugPeer;
import org.rx4j.wire.DebugReply;
import org.rx4j.wire.DebugRequest;
import org.rx4j.wire.DebugStats;
import org.rx4j.wire.PacketType;
import org.rx4j.wire.RxHeader;
import org.rx4j.wire.RxPacket;
import org.rx4j.wire.RxStatistics;

/**
 * Answers rxdebug from an engine's tables (rx-wire-facts.md §9, §13): GETSTATS, GETCONN (connections
 * with an unfinished call), GETALLCONN (all), RXSTATS, GETPEER, and {−8, −8} for any other type.
 * IPv6 peers are reported with host 0 (the wire has 4 bytes).
 */
public final class EngineDebugResponder implements DebugResponder {
    // OpenAFS call states and modes as rxdebug prints them.
    private static final int STATE_PRECALL = 1;
    private static final int STATE_ACTIVE = 2;
    private static final int STATE_DALLY = 3;
    private static final int STATE_HOLD = 4;
    private static final int MODE_SENDING = 1;
    private static final int MODE_RECEIVING = 2;
    private static final int MODE_ERROR = 3;
    private static final int MODE_EOF = 4;

    @Override
    public RxPacket answer(EngineView engine, RxHeader replyHeader, DebugRequest request) {
        ByteBuf out = Unpooled.buffer(RxStatistics.SIZE);
        switch (request.debugType()) {
            case DebugRequest.GETSTATS -> stats(engine).encode(out);
            case DebugRequest.GETCONN -> conn(engine, request.index(), true).encode(out);
            case DebugRequest.GETALLCONN -> conn(engine, request.index(), false).encode(out);
            case DebugRequest.RXSTATS -> rxStats(engine).encode(out);
            case DebugRequest.GETPEER -> peer(engine, request.index()).encode(out);
            default -> {
                out.writeInt(DebugReply.BAD_TYPE);
                out.writeInt(DebugReply.BAD_TYPE);
            }
        }
        byte[] body = new byte[out.readableBytes()];
        out.readBytes(body);
        return new DebugReply(replyHeader, body);
    }

    private static DebugStats stats(EngineView engine) {
        return new DebugStats(0, 0, (int) engine.totals().get(RxCounter.CALLS_EXECUTED), 0, 1, DebugStats.VERSION, 0, 0, 0, 0);
    }

    private static int host(InetSocketAddress a) {
        if (a.getAddress() instanceof Inet4Address v4) {
            byte[] b = v4.getAddress();
            return ((b[0] & 0xFF) << 24) | ((b[1] & 0xFF) << 16) | ((b[2] & 0xFF) << 8) | (b[3] & 0xFF);
        }
        return 0;
    }

    private static DebugConn conn(EngineView engine, int index, boolean interestingOnly) {
        // Walks the live tables (client connections, then server ones) without copying them: a request costs
        // no allocation proportional to the connection count.
        int n = 0;
        for (Collection<Connection> table : List.of(engine.clientConnections(), engine.serverConnections())) {
            for (Connection c : table) {
                if (interestingOnly && !c.hasActiveCalls()) {
                    continue;
                }
                if (n++ == index) {
                    return describe(c);
                }
            }
        }
        return new DebugConn(0, DebugConn.END_CID, 0, new int[4], 0, 0, 0, 0, 0, new byte[4], new byte[4],
                new byte[4], new byte[4], new int[DebugConn.SEC_STATS_WORDS], 0, 0);
    }

    private static DebugConn describe(Connection c) {
        int[] numbers = new int[4];
        byte[] state = new byte[4];
        byte[] mode = new byte[4];
        for (int ch = 0; ch < 4; ch++) {
            numbers[ch] = c.callNumber(ch);
            Call call = c.call(ch);
            if (call == null) {
                continue;
            }
            state[ch] = (byte) switch (call.state()) {
                case PRECALL, WAITING -> STATE_PRECALL;
                case ACTIVE -> STATE_ACTIVE;
                case HOLD -> STATE_HOLD;
                case DALLY, ERROR -> STATE_DALLY;
            };
            mode[ch] = (byte) (call.state() == CallState.ERROR ? MODE_ERROR
                    : call.isDone() ? MODE_EOF : call.queuedPackets() > 0 ? MODE_SENDING : MODE_RECEIVING);
        }
        InetSocketAddress a = c.peer.address();
        SecurityStats s = c.security.stats();
        int[] secStats = DebugConn.secStats(s.type(), s.level(), s.flags(), s.expires(), s.packetsReceived(),
                s.packetsSent(), s.bytesReceived(), s.bytesSent());
        return new DebugConn(host(a), c.cid, c.lastSerial(), numbers, c.error, a.getPort(), 0,
                c.client ? DebugConn.TYPE_CLIENT : DebugConn.TYPE_SERVER, c.securityIndex(), state, mode,
                new byte[4], new byte[4], secStats, c.epoch, c.peer.ifMtu);
    }

    private static RxStatistics rxStats(EngineView engine) {
        RxCounters t = engine.totals();
        int[] v = new int[RxStatistics.WORDS];
        for (int type = 1; type <= RxStatistics.PACKET_TYPES; type++) {
            v[RxStatistics.PACKETS_READ + type - 1] = (int) t.get(RxCounter.PACKETS_RECEIVED, RxCounters.typeSlot(type));
            v[RxStatistics.PACKETS_SENT + type - 1] = (int) t.get(RxCounter.PACKETS_SENT, RxCounters.typeSlot(type));
        }
        v[RxStatistics.DATA_PACKETS_READ] = (int) t.get(RxCounter.DATA_PACKETS_RECEIVED);
        v[RxStatistics.ACK_PACKETS_READ] = (int) t.get(RxCounter.PACKETS_RECEIVED, PacketType.ACK);
        v[RxStatistics.DUP_PACKETS_READ] = (int) t.get(RxCounter.DUPLICATES_RECEIVED);
        v[RxStatistics.ACK_PACKETS_SENT] = (int) t.get(RxCounter.PACKETS_SENT, PacketType.ACK);
        v[RxStatistics.DATA_PACKETS_SENT] = (int) t.get(RxCounter.DATA_PACKETS_SENT);
        v[RxStatistics.DATA_PACKETS_RESENT] = (int) t.get(RxCounter.RESENDS);
        v[RxStatistics.IGNORE_ACKED_PACKET] = (int) t.get(RxCounter.ACKS_IGNORED);
        RttTotals rtt = RttTotals.of(engine.peers());
        putTime(v, RxStatistics.TOTAL_RTT, rtt.sumNs());
        putTime(v, RxStatistics.MIN_RTT, rtt.minNs());
        putTime(v, RxStatistics.MAX_RTT, rtt.maxNs());
        v[RxStatistics.N_RTT_SAMPLES] = (int) rtt.samples();
        v[RxStatistics.N_SERVER_CONNS] = engine.serverConnections().size();
        v[RxStatistics.N_CLIENT_CONNS] = engine.clientConnections().size();
        v[RxStatistics.N_PEER_STRUCTS] = engine.peers().size();
        v[RxStatistics.N_CALL_STRUCTS] = (int) t.get(RxCounter.CALLS_STARTED);
        return new RxStatistics(v);
    }

    private static void putTime(int[] v, int index, long ns) {
        v[index] = (int) (ns / 1_000_000_000L);
        v[index + 1] = (int) ((ns % 1_000_000_000L) / 1000);
    }

    private static DebugPeer peer(EngineView engine, int index) {
        int n = 0;
        for (Peer p : engine.peers()) {
            if (n++ == index) {
                InetSocketAddress a = p.address();
                RttEstimator r = p.rtt();
                RxCounters c = p.counters();
                long rto = r.rtoNs();
                // nSent counts distinct DATA packets (resends apart), as OpenAFS's peer->nSent.
                return new DebugPeer(host(a), a.getPort(), Math.min(p.ifMtu, 65535), 0,
                        (short) Math.min(p.connections, Short.MAX_VALUE), 0, 0, 0, 0,
                        (int) (r.srttNs() / 125_000), (int) (r.rttvarNs() / 250_000),
                        (int) (rto / 1_000_000_000L), (int) (rto % 1_000_000_000L / 1000),
                        (int) (c.get(RxCounter.DATA_PACKETS_SENT) - c.get(RxCounter.RESENDS)), (int) c.get(RxCounter.RESENDS), 0, 0, 0,
                        Math.min(p.ifMtu, 65535), Math.min(p.maxMtu, 65535), p.maxDgramPackets,
                        engine.config().packetSize().jumboMax(), Math.min(p.ifMtu, 65535),
                        Math.min(p.carried.cwnd(), 65535), Math.min(p.carried.jumbo(), 65535), 0,
                        c.get(RxCounter.BYTES_SENT), c.get(RxCounter.BYTES_RECEIVED));
            }
        }
        return new DebugPeer(DebugPeer.END_HOST, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                0, 0, 0, 0, 0);
    }
}
