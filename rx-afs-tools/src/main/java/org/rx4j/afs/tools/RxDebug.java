// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.afs.tools;

import java.io.IOException;
import java.io.PrintWriter;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.rx4j.rpc.debug.ConnectionInfo;
import org.rx4j.rpc.debug.PeerInfo;
import org.rx4j.rpc.debug.RxDebugClient;
import org.rx4j.rpc.debug.RxStats;
import org.rx4j.rpc.debug.ServerStatus;
import org.rx4j.security.SecurityIndex;
import org.rx4j.security.SecurityStats;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code rxdebug}: rx4j's own client of the Rx DEBUG and VERSION packets (rx-wire-facts.md §9), printing what
 * OpenAFS's {@code rxdebug} prints for the same server and options (the line formats were taken from Debian
 * rxdebug's output; the harness diffs the two). The questions are rx-core's debug client
 * ({@link RxDebugClient}, package {@code org.rx4j.rpc.debug}): one UDP socket, one request per question, retried
 * after 1, 2, 4 and 8 s.
 *
 * <pre>
 * rxdebug HOST [PORT] [-version] [-rxstats] [-noconns] [-allconnections] [-peers]
 * rxdebug -servers HOST [-port PORT] [...]          (PORT defaults to 7000, as OpenAFS rxdebug's)
 * </pre>
 *
 * <p>Not printed (rxdebug prints them in some cases): per-call flags of active calls, a connection's error line,
 * {@code -long} peer details. A connection's security statistics are printed as Debian's rxdebug prints them
 * (rxkad: level, flags, expiry, byte and packet counts). One known difference: the peer's {@code timeout} line
 * shows the timeout fields the server sent, where Debian's rxdebug printed {@code 0.000} for the same rx4j server.
 * Exit status: 0, 1 when the server does not answer (one line), 2 on bad usage (one line).
 */
@Command(name = "rxdebug", mixinStandardHelpOptions = true, version = "rxdebug (rx4j)",
        description = "Asks an Rx server's DEBUG/VERSION interface, as OpenAFS rxdebug does.")
public final class RxDebug implements Callable<Integer> {
    private static final String[] RXKAD_LEVELS = {"clear", "auth", "crypt"};
    private static final String[] STATES = {"not initialized", "precall", "active", "dally", "hold", "reset"};
    /** Call modes by wire value, as Debian rxdebug names them. */
    private static final String[] MODES = {"", "sending", "receiving", "error", "eof"};
    private static final String[] PACKET_TYPES = {"data", "ack", "busy", "abort", "ackall", "challenge", "response",
        "debug", "params", "unused", "unused", "unused", "version"};

    @Parameters(index = "0", arity = "0..1", paramLabel = "HOST", description = "the server (or -servers)")
    String host;

    /** The UDP port asked when none is given: 7000, the fileserver's, as OpenAFS rxdebug defaults. */
    static final int DEFAULT_PORT = 7000;

    @Parameters(index = "1", arity = "0..1", paramLabel = "PORT",
            description = "its UDP port (or -port; default 7000, as OpenAFS rxdebug)")
    Integer port;

    @Option(names = "-servers", paramLabel = "HOST", description = "the server, as OpenAFS rxdebug takes it")
    String serversOption;

    @Option(names = "-port", paramLabel = "PORT",
            description = "the UDP port, as OpenAFS rxdebug takes it (default 7000)")
    Integer portOption;

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

    @Override
    public Integer call() throws IOException {
        PrintWriter out = spec.commandLine().getOut();
        String host = either(this.host, serversOption, "HOST", "-servers");
        int port = targetPort();
        try (RxDebugClient client = RxDebugClient.open(host, port)) {
            out.println("Trying " + client.server().getAddress().getHostAddress() + " (port " + port + "):");
            if (version) {
                out.println("AFS version: " + client.version());
                out.flush();
                return 0;
            }
            ServerStatus stats = client.serverStatus();
            out.println("Free packets: " + stats.freePackets() + "/" + stats.packets() + ", packet reclaims: "
                    + stats.packetReclaims() + ", calls: " + stats.callsExecuted() + ", used FDs: " + stats.usedFds());
            out.println(stats.waitingForPackets() ? "waiting for packets." : "not waiting for packets.");
            out.println(stats.callsWaiting() + " calls waiting for a thread");
            out.println(stats.idleThreads() + " threads are idle");
            out.println(stats.callsWaited() + " calls have waited for a thread");
            if (rxstats) {
                printRxStats(out, stats, client.rxStats());
            }
            if (!noConns) {
                for (int i = 0; ; i++) {
                    Optional<ConnectionInfo> c = client.connection(i, allConns);
                    if (c.isEmpty()) {
                        break;
                    }
                    printConn(out, c.get());
                }
                out.println("Done.");
            }
            if (peers) {
                for (int i = 0; ; i++) {
                    Optional<PeerInfo> p = client.peer(i);
                    if (p.isEmpty()) {
                        break;
                    }
                    printPeer(out, p.get());
                }
                out.println("Done.");
            }
            out.flush();
            return 0;
        }
    }

    private static void printRxStats(PrintWriter out, ServerStatus d, RxStats s) {
        out.println("rx stats: free packets " + d.freePackets() + ", allocs " + s.packetRequests()
                + ", alloc-failures(rcv " + s.receiveAllocFailures() + "/" + s.counter(64)
                + ",send " + s.sendAllocFailures() + "/" + s.counter(65) + ",ack "
                + s.specialAllocFailures() + ")");
        out.println("   greedy " + s.counter(4) + ", bogusReads " + s.counter(5) + " (last from host "
                + Integer.toHexString(s.counter(6)) + "), noPackets " + s.counter(7) + ", noBuffers " + s.counter(8) + ", selects " + s.counter(9)
                + ", sendSelects " + s.counter(10));
        StringBuilder read = new StringBuilder("   packets read: ");
        StringBuilder sent = new StringBuilder("   packets sent: ");
        for (int t = 0; t < RxStats.PACKET_TYPES; t++) {
            read.append(PACKET_TYPES[t]).append(' ').append(s.packetsRead(t + 1)).append(' ');
            sent.append(PACKET_TYPES[t]).append(' ').append(s.packetsSent(t + 1)).append(' ');
        }
        out.println(read);
        out.println("   other read counters: data " + s.dataPacketsRead() + ", ack " + s.ackPacketsRead() + ", dup "
                + s.dupPacketsRead() + " spurious " + s.spuriousPacketsRead() + " dally "
                + s.ignorePacketDally());
        out.println(sent);
        out.println("   other send counters: ack " + s.ackPacketsSent() + ", data " + s.dataPacketsSent()
                + " (not resends), resends " + s.dataPacketsReSent() + ", pushed " + s.dataPacketsPushed()
                + ", acked&ignored " + s.ignoreAckedPacket());
        out.println("   \t(these should be small) sendFailed " + s.netSendFailures() + ", fatalErrors "
                + s.fatalErrors());
        if (s.rttSamples() > 0) {
            out.printf("   Average rtt is %.3f, with %d samples%n", s.totalRttMicros() / 1e6 / s.rttSamples(),
                    s.rttSamples());
            out.printf("   Minimum rtt is %.3f, maximum is %.3f%n", s.minRttMicros() / 1e6, s.maxRttMicros() / 1e6);
        }
        out.println("   " + s.serverConnections() + " server connections, " + s.clientConnections()
                + " client connections, " + s.peerStructs() + " peer structs, " + s.callStructs() + " call structs, "
                + s.freeCallStructs() + " free call structs");
    }

    private static void printConn(PrintWriter out, ConnectionInfo c) {
        boolean serverConn = c.serverConnection();
        out.println("Connection " + (serverConn ? "from" : "to") + " host " + dotted(c.host()) + ", port " + c.port()
                + ", Cuid " + Integer.toHexString(c.epoch()) + "/" + Integer.toHexString(c.cid()));
        out.println("  serial " + c.serial() + ",  natMTU " + c.natMtu() + ", security index " + c.securityIndex()
                + ", " + (serverConn ? "server" : "client") + " conn");
        printSecurity(out, c.securityIndex(), c.security());
        for (int ch = 0; ch < c.channels().size(); ch++) {
            ConnectionInfo.Channel call = c.channels().get(ch);
            int state = call.state();
            StringBuilder line = new StringBuilder("    call " + ch + ": # "
                    + Integer.toUnsignedString(call.callNumber()) + ", state "
                    + (state < STATES.length ? STATES[state] : "unknown"));
            if (state != 0) {
                int mode = call.mode();
                line.append(", mode: ").append(mode > 0 && mode < MODES.length ? MODES[mode] : "unknown");
            }
            out.println(line);
        }
    }

    /** The lines rxdebug prints for struct rx_securityObjectStats: rxkad's level, flags, expiry and counts. */
    private static void printSecurity(PrintWriter out, int securityIndex, SecurityStats s) {
        if (s.type() == SecurityStats.TYPE_NONE) {
            if (securityIndex == SecurityIndex.RXKAD) {
                out.println("  no GetStats procedure for security object");
            }
            return;
        }
        if (s.type() != SecurityStats.TYPE_RXKAD) {
            out.println("  security class type " + s.type() + " level=" + s.level() + ", flags=" + s.flags());
            return;
        }
        StringBuilder line = new StringBuilder("  rxkad: level ").append(s.level() < RXKAD_LEVELS.length
                ? RXKAD_LEVELS[s.level()] : "unknown");
        int flags = s.flags() & 0xff;
        if (flags != 0) {
            line.append(", flags");
            String[] names = {" unalloc", " authenticated", " expired", " pktCksum"};
            for (int bit = 0; bit < names.length; bit++) {
                if ((flags & (1 << bit)) != 0) {
                    line.append(names[bit]);
                }
            }
        }
        if (s.expires() != 0) {
            line.append(String.format(Locale.ROOT, ", expires in %.1f hours",
                    (s.expires() - System.currentTimeMillis() / 1000) / 3600.0));
        }
        out.println(line);
        if ((flags & SecurityStats.FLAG_UNALLOCATED) == 0) {
            out.println("  Received " + s.bytesReceived() + " bytes in " + s.packetsReceived() + " packets");
            out.println("  Sent " + s.bytesSent() + " bytes in " + s.packetsSent() + " packets");
        }
    }

    private static void printPeer(PrintWriter out, PeerInfo p) {
        out.println("Peer at host " + dotted(p.host()) + ", port " + p.port());
        out.println("\tifMTU " + p.ifMtu() + "\tnatMTU " + p.natMtu() + "\tmaxMTU " + p.maxMtu());
        out.println("\tpackets sent " + p.packetsSent() + "\tpacket resends " + p.resends());
        out.println("\tbytes sent high " + (p.bytesSent() >>> 32) + " low " + (p.bytesSent() & 0xffff_ffffL));
        out.println("\tbytes received high " + (p.bytesReceived() >>> 32) + " low "
                + (p.bytesReceived() & 0xffff_ffffL));
        out.println("\trtt " + (p.rtt() >> 3) + " msec, rtt_dev " + (p.rttDev() >> 2) + " msec");
        out.printf("\ttimeout %d.%03d sec%n", p.timeoutSec(), p.timeoutUsec() / 1000);
    }

    /**
     * @return the UDP port to ask: the positional PORT or {@code -port}, else {@link #DEFAULT_PORT}
     * @throws CommandLine.ParameterException when both are given
     */
    int targetPort() {
        return port == null && portOption == null ? DEFAULT_PORT : either(port, portOption, "PORT", "-port");
    }

    /** @return the positional value or the OpenAFS-style option's, exactly one of which must be given */
    private <T> T either(T positional, T option, String what, String optionName) {
        if (positional == null && option == null) {
            throw new CommandLine.ParameterException(spec.commandLine(),
                    "missing " + what + " (a parameter, or " + optionName + " " + what + ")");
        }
        if (positional != null && option != null) {
            throw new CommandLine.ParameterException(spec.commandLine(), what + " given twice (parameter and "
                    + optionName + ")");
        }
        return positional != null ? positional : option;
    }

    private static String dotted(int a) {
        return (a >>> 24) + "." + (a >>> 16 & 0xff) + "." + (a >>> 8 & 0xff) + "." + (a & 0xff);
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
