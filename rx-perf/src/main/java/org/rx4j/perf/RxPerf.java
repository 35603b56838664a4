// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.perf;

import java.util.List;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.function.LongSupplier;
import org.rx4j.perf.client.CpuClock;
import org.rx4j.perf.transport.PerfTransportFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * rxperf, the Rx benchmark: command-line and wire compatible with OpenAFS 1.8's rxperf (rx-wire-facts.md §10),
 * with rx4j extras under long names. Subcommands {@code server}, {@code client} and {@code loopback}. Exit codes:
 * 0 success, 1 run-time failure ({@code rxperf: <problem>}), 2 usage error (OpenAFS uses 1 for both).
 * Full reference: docs/rxperf.md.
 */
@Command(name = "rxperf", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        description = "Rx benchmark, compatible with OpenAFS rxperf.")
public final class RxPerf implements Callable<Integer> {
    /** The subcommands, in the order the usage lists them; added by {@link #commandLine(RxPerf, String...)}. */
    private static final List<Class<?>> SUBCOMMANDS = List.of(ServerCommand.class, ClientCommand.class,
            LoopbackCommand.class);

    /** Netty's switch for its Flight Recorder events, read once when Netty's platform probe initialises. */
    static final String NETTY_JFR_PROPERTY = "io.netty.jfr.enabled";

    private final TransportLookup transports;
    private final ServerLifetime serverLifetime;
    private final LongSupplier nanoClock;
    private final CpuClock cpuClock;

    @Spec
    CommandSpec spec;

    /** The production app: transport from {@link java.util.ServiceLoader}, servers run until shutdown. */
    public RxPerf() {
        this(TransportLookup.serviceLoader(), ServerLifetime.untilShutdown(), System::nanoTime);
    }

    /**
     * An app with its collaborators given (tests).
     *
     * @param transports where the Rx transport comes from
     * @param serverLifetime how long {@code server} serves
     * @param nanoClock monotonic clock in ns for timing runs
     */
    public RxPerf(TransportLookup transports, ServerLifetime serverLifetime, LongSupplier nanoClock) {
        this(transports, serverLifetime, nanoClock, CpuClock.system());
    }

    /**
     * An app with its collaborators given, the CPU clock too (tests).
     *
     * @param transports where the Rx transport comes from
     * @param serverLifetime how long {@code server} serves
     * @param nanoClock monotonic clock in ns for timing runs
     * @param cpuClock process CPU time in ns for the CPU figures
     */
    public RxPerf(TransportLookup transports, ServerLifetime serverLifetime, LongSupplier nanoClock,
            CpuClock cpuClock) {
        this.transports = Objects.requireNonNull(transports, "transports");
        this.serverLifetime = Objects.requireNonNull(serverLifetime, "serverLifetime");
        this.nanoClock = Objects.requireNonNull(nanoClock, "nanoClock");
        this.cpuClock = Objects.requireNonNull(cpuClock, "cpuClock");
    }

    /**
     * Runs rxperf and exits with its code.
     *
     * @param args the command line
     */
    public static void main(String[] args) {
        skipNettyFlightRecorderEvents();
        System.exit(commandLine(new RxPerf(), args).execute(args));
    }

    /**
     * Turns Netty's own Flight Recorder events (buffer and chunk allocation) off unless the user set
     * {@code -Dio.netty.jfr.enabled}. With them on, the pooled allocator's first chunk, allocated inside the first
     * call, initialises the JDK's Flight Recorder metadata (some 200 classes, 30-250 ms cold) even when no recording
     * runs; rxperf measures that first call (docs/rxperf.md, "The launcher"). The JVM's own Flight Recorder events are
     * unaffected.
     */
    static void skipNettyFlightRecorderEvents() {
        if (System.getProperty(NETTY_JFR_PROPERTY) == null) {
            System.setProperty(NETTY_JFR_PROPERTY, "false");
        }
    }

    /**
     * A configured command line: one-line usage errors (exit 2), one-line run failures (exit 1), repeated flags
     * allowed with the last winning (as getopt).
     *
     * @param app the app
     * @return the command line, ready to {@code execute}
     */
    public static CommandLine commandLine(RxPerf app) {
        return commandLine(app, new String[0]);
    }

    /**
     * A configured command line for {@code args}: when the first argument names a subcommand exactly, only that
     * subcommand's model is built (picocli reads every option of every subcommand it is given, by reflection, on
     * every start: about a third of a cold client's start-up CPU before its first call); otherwise all are, for
     * the usage, the version and picocli's "did you mean" on a misspelt subcommand.
     *
     * @param app the app
     * @param args the command line that will be executed
     * @return the command line, ready to {@code execute}
     */
    public static CommandLine commandLine(RxPerf app, String... args) {
        CommandLine commandLine = new CommandLine(app);
        String first = args.length > 0 ? args[0] : null;
        boolean one = SUBCOMMANDS.stream().anyMatch(c -> nameOf(c).equals(first));
        for (Class<?> sub : SUBCOMMANDS) {
            if (!one || nameOf(sub).equals(first)) {
                commandLine.addSubcommand(nameOf(sub), sub);
            }
        }
        commandLine.setOverwrittenOptionsAllowed(true);
        commandLine.setParameterExceptionHandler(new UsageErrorHandler());
        commandLine.setExecutionExceptionHandler(new RunFailureHandler());
        return commandLine;
    }

    /** @return a subcommand's name, as its {@code @Command} annotation gives it */
    private static String nameOf(Class<?> subcommand) {
        return subcommand.getAnnotation(Command.class).name();
    }

    /**
     * Without a subcommand: a usage error.
     *
     * @return never
     * @throws ParameterException always
     */
    @Override
    public Integer call() {
        throw new ParameterException(spec.commandLine(), "Missing subcommand: server, client or loopback");
    }

    /**
     * The transport to run on.
     *
     * @return the factory
     * @throws RxperfFailure {@code no Rx transport available} if there is none
     */
    PerfTransportFactory transportFactory() {
        return transports.find().orElseThrow(() -> new RxperfFailure("no Rx transport available"));
    }

    ServerLifetime serverLifetime() {
        return serverLifetime;
    }

    LongSupplier nanoClock() {
        return nanoClock;
    }

    CpuClock cpuClock() {
        return cpuClock;
    }
}
