package org.rx4j.afs.tools;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.Callable;
import org.rx4j.wire.DebugConn;
import org.rx4j.wire.DebugPeer;
import org.rx4j.wire.DebugRequest;
import org.rx4j.wire.DebugStats;
import org.rx4j.wire.RxStatistics;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code rxdebug}: rx4j's own client of the Rx DEBUG and VERSION packets (rx-wire-facts.md §9), printing what
 * OpenAFS's {@code rxdebug} prints for the same server and options (the line formats were taken from Debian
 * rxdebug's output; the harness diffs the two). Connectionless: one UDP socket, one request per question, retried
 * after 1, 2, 4 and 8 s.
 *
 * <pre>
 * rxdebug HOST PORT [-version] [-rxstats] [-noconns] [-allconnections] [-peers]
 * </pre>
 *
 * <p>Not printed (rxdebug prints them in some cases): per-call flags of active calls, a connection's error line,
 * {@code -long} peer details, secStats. One known difference: the peer's {@code timeout} line shows the
 * timeout fields the server sent, where Debian's rxdebug printed {@code 0.000} for the same rx4j server. Exit status: 0, 1 when the server does not answer (one line), 2 on bad
 * usage (one line). The wire structs are rx-core's ({@code org.rx4j.wire}; this tool runs on the class path).
 */
@Command(name = "rxdebug", mixinStandardHelpOptions = true, version = "rxdebug (rx4j)",
        description = "Asks an Rx server's DEBUG/VERSION interface, as OpenAFS rxdebug does.")
public final class RxDebug implements Callable<Integer> {
    private static final int HEADER = 28;
    private static final int EPOCH = 999;
    private static final int TYPE_DEBUG = 8;
    private static final int TYPE_VERSION = 13;
    private static final int FLAGS = 0x05;    // CLIENT_INITIATED | LAST_PACKET
    private static final int VERSION_BYTES = 65;
    private static final int[] RETRY_MS = {1000, 2000, 4000, 8000};
    private static final String[] STATES = {"not initialized", "precall", "active", "dally", "hold", "reset"};
    /** Call modes by wire value (3 and 4 as Debian rxdebug names them for an rx4j server's calls). */
    private static final String[] MODES = {"", "send", "receive", "error", "eof"};
    private static final String[] PACKET_TYPES = {"data", "ack", "busy", "abort", "ackall", "challenge", "response",
        "debug", "params", "unused", "unused", "unused", "version"};

    @Parameters(index = "0", paramLabel = "HOST")
    String host;

    @Parameters(index = "1", paramLabel = "PORT")
    int port;

    @Option(names = "-version", description = "print the server's version string and stop")
    boolean version;

    @Option(names = "-rxstats", description = "print the Rx statistics")
    boolean rxstats;

    @Option(names = "-noconns", description = "list no connections")
    boolean noConns;

    @Option(names = "-allconnections", description = "list every connection, not only those with calls")
    boolean allConns;

    @Option(names = "-peers", description = "list the peers")
    boolean peers;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    private DatagramSocket socket;
    private InetSocketAddress server;
    private int callNumber = 101;

    @Override
    public Integer call() throws IOException {
        PrintWriter out = spec.commandLine().getOut();
        InetAddress address = InetAddress.getByName(host);
        server = new InetSocketAddress(address, port);
        out.println("Trying " + address.getHostAddress() + " (port " + port + "):");
        try (DatagramSocket s = new DatagramSocket()) {
            socket = s;
            if (version) {
                byte[] body = ask(TYPE_VERSION, new byte[1]);
                int end = 0;
                while (end < Math.min(body.length, 63) && body[end] != 0) {
                    end++;
                }
                out.println("AFS version: " + new String(body, 0, end, StandardCharsets.ISO_8859_1));
                out.flush();
                return 0;
            }
            DebugStats stats = DebugStats.decode(debug(DebugRequest.GETSTATS, 0));
            if (stats == null) {
                throw new IOException("short GETSTATS reply");
            }
            out.println("Free packets: " + stats.nFreePackets() + "/" + stats.nPackets() + ", packet reclaims: "
                    + stats.packetReclaims() + ", calls: " + stats.callsExecuted() + ", used FDs: " + stats.usedFDs());
            out.println(stats.waitingForPackets() != 0 ? "waiting for packets." : "not waiting for packets.");
            out.println(stats.nWaiting() + " calls waiting for a thread");
            out.println(stats.idleThreads() + " threads are idle");
            out.println(stats.nWaited() + " calls have waited for a thread");
            if (rxstats) {
                byte[] body = debug(DebugRequest.RXSTATS, 0);
                if (body.length < RxStatistics.SIZE) {
                    throw new IOException("short RXSTATS reply: " + body.length + " bytes");
                }
                printRxStats(out, stats, new RxStatistics(words(body, RxStatistics.WORDS)));
            }
            if (!noConns) {
                for (int i = 0; ; i++) {
                    DebugConn c = DebugConn.decode(debug(allConns ? DebugRequest.GETALLCONN : DebugRequest.GETCONN, i));
                    if (c == null || c.isEnd()) {
                        break;
                    }
                    printConn(out, c);
                }
                out.println("Done.");
            }
            if (peers) {
                for (int i = 0; ; i++) {
                    DebugPeer p = DebugPeer.decode(debug(DebugRequest.GETPEER, i));
                    if (p == null || p.isEnd()) {
                        break;
                    }
                    printPeer(out, p);
                }
                out.println("Done.");
            }
            out.flush();
            return 0;
        }
    }

    private static void printRxStats(PrintWriter out, DebugStats d, RxStatistics s) {
        out.println("rx stats: free packets " + d.nFreePackets() + ", allocs " + s.packetRequests()
                + ", alloc-failures(rcv " + s.value(RxStatistics.RECEIVE_PKT_ALLOC_FAILURES) + "/" + s.value(64)
                + ",send " + s.value(RxStatistics.SEND_PKT_ALLOC_FAILURES) + "/" + s.value(65) + ",ack "
                + s.value(RxStatistics.SPECIAL_PKT_ALLOC_FAILURES) + ")");
        out.println("   greedy " + s.value(4) + ", bogusReads " + s.value(5) + " (last from host " + s.value(6)
                + "), noPackets " + s.value(7) + ", noBuffers " + s.value(8) + ", selects " + s.value(9)
                + ", sendSelects " + s.value(10));
        StringBuilder read = new StringBuilder("   packets read: ");
        StringBuilder sent = new StringBuilder("   packets sent: ");
        for (int t = 0; t < RxStatistics.PACKET_TYPES; t++) {
            read.append(PACKET_TYPES[t]).append(' ').append(s.packetsRead(t + 1)).append(' ');
            sent.append(PACKET_TYPES[t]).append(' ').append(s.packetsSent(t + 1)).append(' ');
        }
        out.println(read);
        out.println("   other read counters: data " + s.dataPacketsRead() + ", ack " + s.ackPacketsRead() + ", dup "
                + s.dupPacketsRead() + " spurious " + s.spuriousPacketsRead() + " dally "
                + s.value(RxStatistics.IGNORE_PACKET_DALLY));
        out.println(sent);
        out.println("   other send counters: ack " + s.ackPacketsSent() + ", data " + s.dataPacketsSent()
                + " (not resends), resends " + s.dataPacketsReSent() + ", pushed " + s.dataPacketsPushed()
                + ", acked&ignored " + s.ignoreAckedPacket());
        out.println("   \t(these should be small) sendFailed " + s.netSendFailures() + ", fatalErrors "
                + s.value(RxStatistics.FATAL_ERRORS));
        if (s.nRttSamples() > 0) {
            out.printf("   Average rtt is %.3f, with %d samples%n", s.totalRttMicros() / 1e6 / s.nRttSamples(),
                    s.nRttSamples());
            out.printf("   Minimum rtt is %.3f, maximum is %.3f%n", s.minRttMicros() / 1e6, s.maxRttMicros() / 1e6);
        }
        out.println("   " + s.nServerConns() + " server connections, " + s.nClientConns() + " client connections, "
                + s.nPeerStructs() + " peer structs, " + s.nCallStructs() + " call structs, "
                + s.nFreeCallStructs() + " free call structs");
    }

    private static void printConn(PrintWriter out, DebugConn c) {
        boolean serverConn = c.type() == DebugConn.TYPE_SERVER;
        out.println("Connection " + (serverConn ? "from" : "to") + " host " + dotted(c.host()) + ", port " + c.port()
                + ", Cuid " + Integer.toHexString(c.epoch()) + "/" + Integer.toHexString(c.cid()));
        out.println("  serial " + c.serial() + ",  natMTU " + c.natMTU() + ", security index " + c.securityIndex()
                + ", " + (serverConn ? "server" : "client") + " conn");
        for (int ch = 0; ch < 4; ch++) {
            int state = c.callState(ch);
            StringBuilder line = new StringBuilder("    call " + ch + ": # " + Integer.toUnsignedString(c.callNumber(ch))
                    + ", state " + (state < STATES.length ? STATES[state] : "unknown"));
            if (state != 0) {
                int mode = c.callMode(ch);
                line.append(", mode: ").append(mode > 0 && mode < MODES.length ? MODES[mode] : "unknown");
            }
            out.println(line);
        }
    }

    private static void printPeer(PrintWriter out, DebugPeer p) {
        out.println("Peer at host " + dotted(p.host()) + ", port " + p.port());
        out.println("\tifMTU " + p.ifMTU() + "\tnatMTU " + p.natMTU() + "\tmaxMTU " + p.maxMTU());
        out.println("\tpackets sent " + p.nSent() + "\tpacket resends " + p.reSends());
        out.println("\tbytes sent high " + (p.bytesSent() >>> 32) + " low " + (p.bytesSent() & 0xffff_ffffL));
        out.println("\tbytes received high " + (p.bytesReceived() >>> 32) + " low "
                + (p.bytesReceived() & 0xffff_ffffL));
        out.println("\trtt " + (p.rtt() >> 3) + " msec, rtt_dev " + (p.rttDev() >> 2) + " msec");
        out.printf("\ttimeout %d.%03d sec%n", p.timeoutSec(), p.timeoutUsec() / 1000);
    }

    private static String dotted(int a) {
        return (a >>> 24) + "." + (a >>> 16 & 0xff) + "." + (a >>> 8 & 0xff) + "." + (a & 0xff);
    }

    private static int[] words(byte[] body, int n) {
        ByteBuffer b = ByteBuffer.wrap(body);
        int[] out = new int[n];
        for (int i = 0; i < n; i++) {
            out[i] = b.getInt();
        }
        return out;
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

    /**
     * Runs rxdebug with the given streams.
     *
     * @param args the command line
     * @param out standard output
     * @param err standard error
     * @return 0, 1 (no answer or a bad reply) or 2 (bad usage)
     */
    public static int run(String[] args, PrintWriter out, PrintWriter err) {
        CommandLine cmd = new CommandLine(new RxDebug()).setOut(out).setErr(err);
        cmd.setParameterExceptionHandler((e, a) -> {
            err.println("rxdebug: " + e.getMessage() + " (rxdebug --help)");
            err.flush();
            return 2;
        });
        cmd.setExecutionExceptionHandler((e, c, p) -> {
            out.flush();
            err.println("rxdebug: " + e.getMessage());
            err.flush();
            return 1;
        });
        return cmd.execute(args);
    }

    /**
     * @param args the command line
     */
    public static void main(String[] args) {
        System.exit(run(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true)));
    }
}
