// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.perf;

import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.util.concurrent.Callable;
import org.rx4j.perf.protocol.RxperfProtocol;
import org.rx4j.perf.protocol.RxperfServerHandler;
import org.rx4j.perf.transport.PerfEndpointOptions;
import org.rx4j.perf.transport.PerfSecurity;
import org.rx4j.perf.transport.PerfServerTransport;
import org.rx4j.perf.transport.PerfTransportFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code rxperf server}: serves rxperf's service 147 on all interfaces until stopped (Ctrl-C), with OpenAFS rxperf's
 * server flags (rx-wire-facts.md §10). Prints nothing on stdout; aborted calls are reported on stderr.
 */
@Command(name = "server", sortOptions = false, versionProvider = VersionProvider.class,
        description = "Serve rxperf (service 147) on all interfaces until stopped.")
final class ServerCommand implements Callable<Integer> {
    @ParentCommand
    RxPerf app;

    @Spec
    CommandSpec spec;

    @Option(names = "-p", paramLabel = "PORT", converter = CIntConverter.class, defaultValue = "7009",
            description = "UDP port, 0..65535 (0: ephemeral, printed on stderr). Default: ${DEFAULT-VALUE}.")
    int port;

    @Option(names = "-s", paramLabel = "MINPROCS", converter = CIntConverter.class, defaultValue = "2",
            description = "Server threads reserved for the service, 0..1024. Default: ${DEFAULT-VALUE}.")
    int minProcs;

    @Option(names = "-S", paramLabel = "MAXPROCS", converter = CIntConverter.class, defaultValue = "20",
            description = "Most calls served at once, 1..1024, >= -s. Default: ${DEFAULT-VALUE}.")
    int maxProcs;

    @Option(names = "-r", paramLabel = "BYTES", converter = CIntConverter.class, defaultValue = "524288",
            description = "Accepted for compatibility, 1..524288; no effect (each call uses the client's sizes, "
                    + "as OpenAFS).")
    int readSize;

    @Option(names = "-w", paramLabel = "BYTES", converter = CIntConverter.class, defaultValue = "524288",
            description = "Accepted for compatibility, 1..524288; no effect (each call uses the client's sizes, "
                    + "as OpenAFS).")
    int writeSize;

    @Option(names = "--verify", description = "Check request payload against the k mod 251 pattern (rx4j clients "
            + "only: OpenAFS clients send zeros); a mismatch aborts the call with code 251.")
    boolean verify;

    @Mixin
    EndpointFlags endpoint;

    @Mixin
    SecurityFlags security;

    @Mixin
    HelpFlags help;

    @Override
    public Integer call() throws Exception {
        CommandLine commandLine = spec.commandLine();
        FlagCheck check = new FlagCheck(commandLine);
        check.range("-p", port, 0, 65535);
        check.range("-s", minProcs, 0, PerfEndpointOptions.MAX_PROCS);
        check.range("-S", maxProcs, 1, PerfEndpointOptions.MAX_PROCS);
        if (minProcs > maxProcs) {
            throw check.usage("Invalid value for option '-s': minprocs " + minProcs + " is greater than -S maxprocs "
                    + maxProcs);
        }
        check.range("-r", readSize, 1, RxperfProtocol.MAX_CHUNK);
        check.range("-w", writeSize, 1, RxperfProtocol.MAX_CHUNK);
        endpoint.validate(check);
        PerfSecurity minimum = security.toSecurity(check);
        PerfTransportFactory factory = app.transportFactory();
        PrintWriter err = commandLine.getErr();
        RxperfServerHandler handler = new RxperfServerHandler(verify, line -> {
            err.println("rxperf: " + line);
            err.flush();
        });
        try (PerfServerTransport server = factory.newServer(endpoint.toOptions(minProcs, maxProcs,
                EndpointFlags.SERVER_DEFAULTS), minimum)) {
            int bound = server.start(new InetSocketAddress(port), RxperfProtocol.SERVICE_ID, handler);
            // A readiness signal for scripts (the service is registered before the socket reads): OpenAFS's rxperf
            // prints nothing, so a script had to guess how long a JVM takes to bind.
            err.println("rxperf: server listening on port " + bound);
            err.flush();
            app.serverLifetime().await(server);
        }
        return CommandLine.ExitCode.OK;
    }
}
