// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.perf;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
import org.rx4j.perf.client.ClientDriver;
import org.rx4j.perf.client.RunResult;
import org.rx4j.perf.protocol.RxperfCommand;
import org.rx4j.perf.protocol.RxperfProtocol;
import org.rx4j.perf.protocol.RxperfRequest;
import org.rx4j.perf.protocol.RxperfServerHandler;
import org.rx4j.perf.report.JsonReport;
import org.rx4j.perf.report.ProgressReporter;
import org.rx4j.perf.report.RunReport;
import org.rx4j.perf.report.TextReport;
import org.rx4j.perf.transport.PerfCallException;
import org.rx4j.perf.transport.PerfClientTransport;
import org.rx4j.perf.transport.PerfEndpointOptions;
import org.rx4j.perf.transport.PerfSecurity;
import org.rx4j.perf.transport.PerfServerTransport;
import org.rx4j.perf.transport.PerfTransportFactory;
import picocli.CommandLine;

/**
 * A client run, shared by {@code client} and {@code loopback}: checks the flags, starts the in-process server for
 * loopback, runs the calls, prints the report on stdout.
 */
final class ClientRun {
    private final RxPerf app;
    private final CommandLine commandLine;
    private final ClientFlags flags;
    private final EndpointFlags endpoint;
    private final SecurityFlags securityFlags;
    /** The connections' security, from {@link #securityFlags} once validated. */
    private PerfSecurity security = PerfSecurity.NONE;

    /**
     * @param app the root command (transport lookup, clock)
     * @param commandLine the subcommand, for its streams and usage errors
     * @param flags client flags
     * @param endpoint endpoint flags
     * @param securityFlags security flags (both sides in loopback)
     */
    ClientRun(RxPerf app, CommandLine commandLine, ClientFlags flags, EndpointFlags endpoint,
            SecurityFlags securityFlags) {
        this.app = app;
        this.commandLine = commandLine;
        this.flags = flags;
        this.endpoint = endpoint;
        this.securityFlags = securityFlags;
    }

    /**
     * Runs against a remote server ({@code client}).
     *
     * @return exit code 0
     * @throws Exception any failure (the run-failure handler prints it, exit 1)
     */
    int runClient() throws Exception {
        FlagCheck check = new FlagCheck(commandLine);
        flags.validate(check, endpoint, true);
        endpoint.validate(check);
        security = securityFlags.toSecurity(check);
        RxperfRequest request = flags.toRequest(check);
        PerfTransportFactory factory = app.transportFactory();
        PerfEndpointOptions options = clientOptions();
        InetSocketAddress server = new InetSocketAddress(resolve(flags.host), flags.port);
        return runAgainst(factory, options, request, server, null);
    }

    /**
     * Starts a server in this process on {@code -s} (default 127.0.0.1), port {@code -p} if given or an ephemeral
     * one, and runs against it ({@code loopback}).
     *
     * @param portGiven whether {@code -p} was on the command line
     * @return exit code 0
     * @throws Exception any failure
     */
    int runLoopback(boolean portGiven) throws Exception {
        FlagCheck check = new FlagCheck(commandLine);
        flags.validate(check, endpoint, false);
        if (portGiven) {
            check.range("-p", flags.port, 0, 65535);
        }
        endpoint.validate(check);
        security = securityFlags.toSecurity(check);
        RxperfRequest request = flags.toRequest(check);
        PerfTransportFactory factory = app.transportFactory();
        PerfEndpointOptions serverOptions = endpoint.toOptions(PerfEndpointOptions.DEFAULT_MIN_PROCS,
                PerfEndpointOptions.DEFAULT_MAX_PROCS, EndpointFlags.SERVER_DEFAULTS);
        InetAddress address = resolve(flags.host);
        PrintWriter err = commandLine.getErr();
        RxperfServerHandler handler = new RxperfServerHandler(flags.verify, line -> {
            if (endpoint.debug) {
                err.println("rxperf: server: " + line);
                err.flush();
            }
        });
        try (PerfServerTransport serverTransport = factory.newServer(serverOptions, security)) {
            int port = serverTransport.start(new InetSocketAddress(address, portGiven ? flags.port : 0),
                    RxperfProtocol.SERVICE_ID, handler);
            return runAgainst(factory, clientOptions(), request, new InetSocketAddress(address, port),
                    serverTransport);
        }
    }

    /**
     * @return the path entries (cc.*, path.*) of the endpoint's statistics: what --json carries without -D; the
     *     RTT entries only once there is a sample (before, they are presets: {@link JsonReport#isPreset})
     */
    private static Map<String, Long> pathOnly(Map<String, Long> stats) {
        Map<String, Long> m = new java.util.LinkedHashMap<>();
        stats.forEach((k, v) -> {
            if ((k.startsWith("cc.") || k.startsWith("path.")) && !JsonReport.isPreset(stats, k)) {
                m.put(k, v);
            }
        });
        return m.isEmpty() ? null : m;
    }

    private int runAgainst(PerfTransportFactory factory, PerfEndpointOptions options, RxperfRequest request,
            InetSocketAddress server, PerfServerTransport loopbackServer) throws IOException, InterruptedException {
        LongAdder moved = new LongAdder();
        ProgressReporter[] progress = new ProgressReporter[1];
        RunResult result;
        Map<String, Long> clientStats = null;
        try (PerfClientTransport client = factory.newClient(options, security)) {
            ClientDriver driver = new ClientDriver(request, flags.threads, flags.toSchedule(), flags.verify,
                    request.command() == RxperfCommand.RPC, app.nanoClock(), app.cpuClock());
            driver.threaded(flags.threaded);
            try {
                result = driver.run(client, server, RxperfProtocol.SERVICE_ID, moved, start -> {
                    if (flags.interval != null) {
                        progress[0] = new ProgressReporter(moved, commandLine.getErr(), start, app.nanoClock(),
                                client::stats, request.headerBytesPerCall());
                        progress[0].start((long) (flags.interval * 1e9));
                    }
                });
            } catch (PerfCallException e) {
                Exception failure = FailureMessages.forServer(e, server);
                if (failure instanceof RxperfFailure f) {
                    throw f;
                }
                throw e;
            } finally {
                if (progress[0] != null) {
                    progress[0].finish(app.nanoClock().getAsLong());
                }
            }
            if (flags.dumpStats) {
                clientStats = client.stats();
            } else if (flags.json) {
                clientStats = pathOnly(client.stats());
            }
        }
        Map<String, Long> serverStats = flags.dumpStats && loopbackServer != null ? loopbackServer.stats() : null;
        // a timed run reports the calls it counted, spread over the threads, as OpenAFS's "times"
        int times = flags.time == null ? flags.times : (int) Math.min(Integer.MAX_VALUE, result.calls() / flags.threads);
        RunReport report = new RunReport(request, flags.threads, times, flags.host, server.getPort(),
                factory.name(), options, flags.verify, result, clientStats, serverStats, flags.time,
                flags.time == null ? null : flags.omitSeconds());
        PrintWriter out = commandLine.getOut();
        if (flags.json) {
            out.println(JsonReport.render(report, VersionProvider.version()));
        } else {
            TextReport.render(report).forEach(out::println);
            String latency = TextReport.latencyLine(report);
            if (latency != null) {
                commandLine.getErr().println(latency);
                commandLine.getErr().flush();
            }
        }
        out.flush();
        return CommandLine.ExitCode.OK;
    }

    private PerfEndpointOptions clientOptions() {
        return endpoint.toOptions(PerfEndpointOptions.DEFAULT_MIN_PROCS, PerfEndpointOptions.DEFAULT_MAX_PROCS,
                EndpointFlags.CLIENT_DEFAULTS);
    }

    private static InetAddress resolve(String host) {
        try {
            return InetAddress.getByName(host);
        } catch (UnknownHostException e) {
            throw new RxperfFailure("unknown host '" + host + "'", e, RxperfFailure.EXIT_UNKNOWN_HOST);
        }
    }
}
