package org.rx4j.rpc;

import java.net.InetSocketAddress;
import java.util.List;

/**
 * Everything one endpoint counts, as a read-only snapshot taken on its event loop: the totals over every
 * connection (closed ones included) and connectionless traffic (rxdebug's RXSTATS/GETSTATS view and
 * {@code rxperf -D}), transport counters, and one entry per live connection and per known peer.
 *
 * @param localAddress the bound address
 * @param totals counters over all connections, closed ones included
 * @param datagramsReceived UDP datagrams read
 * @param datagramsSent UDP datagrams written
 * @param sendFailures datagram writes the socket reported as failed
 * @param malformedDatagrams datagrams dropped because they did not decode
 * @param droppedPackets decoded packets no connection or call took (e.g. for a finished call)
 * @param callsExecuted server calls started
 * @param connections the live connections, client and server
 * @param peers the known peers
 */
public record EndpointStats(InetSocketAddress localAddress, CounterStats totals, long datagramsReceived,
                            long datagramsSent, long sendFailures, long malformedDatagrams, long droppedPackets,
                            long callsExecuted, List<ConnectionStats> connections, List<PeerStats> peers) {
    /**
     * Copies the lists into unmodifiable lists.
     *
     * @param localAddress see {@link #localAddress()}
     * @param totals see {@link #totals()}
     * @param datagramsReceived see {@link #datagramsReceived()}
     * @param datagramsSent see {@link #datagramsSent()}
     * @param sendFailures see {@link #sendFailures()}
     * @param malformedDatagrams see {@link #malformedDatagrams()}
     * @param droppedPackets see {@link #droppedPackets()}
     * @param callsExecuted see {@link #callsExecuted()}
     * @param connections see {@link #connections()}
     * @param peers see {@link #peers()}
     */
    public EndpointStats {
        connections = List.copyOf(connections);
        peers = List.copyOf(peers);
    }
}
