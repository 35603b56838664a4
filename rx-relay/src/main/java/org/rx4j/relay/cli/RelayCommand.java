// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.relay.cli;

import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.rx4j.relay.ImpairmentRelay;
import org.rx4j.relay.RelayStats;
import org.rx4j.relay.TransportChoice;
import org.rx4j.relay.core.Impairment;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;

/**
 * The {@code relay} command line: runs an {@link ImpairmentRelay} until interrupted (or for {@code --duration}),
 * printing its settings, a stats line every {@code --stats-interval} seconds and a summary at the end on stdout,
 * falling-behind warnings on stderr. Exit codes: 0 done, 1 run-time failure ({@code relay: <problem>}), 2 usage
 * error (one line naming the flag, then a hint). Reference: docs/relay.md.
 */
public final class RelayCommand {
    private static final String[] SCOPES = {"", "up-", "down-"};

    private RelayCommand() {
    }

    /**
     * Runs the CLI and exits with its code.
     *
     * @param args the command line
     */
    public static void main(String[] args) {
        System.exit(run(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true)));
    }

    /**
     * Runs the CLI (blocks while the relay runs).
     *
     * @param args the command line
     * @param out where settings, stats and help go
     * @param err where errors and warnings go
     * @return the exit code: 0, 1 or 2
     */
    public static int run(String[] args, PrintWriter out, PrintWriter err) {
        CommandLine cl = commandLine();
        cl.setOut(out);
        cl.setErr(err);
        cl.setParameterExceptionHandler((ex, a) -> {
            err.println("relay: " + oneLine(ex.getMessage()));
            err.println("Try 'relay --help'");
            err.flush();
            return CommandLine.ExitCode.USAGE;
        });
        cl.setExecutionStrategy(pr -> {
            Integer help = CommandLine.executeHelpRequest(pr);
            if (help != null) {
                return help;
            }
            Settings settings = settings(pr);
            return runRelay(settings, out, err);
        });
        return cl.execute(args);
    }

    /** The parsed command line. */
    record Settings(InetSocketAddress listen, InetSocketAddress target, Impairment upstream, Impairment downstream,
                    Long seed, double statsIntervalSeconds, double durationSeconds, double lateThresholdMs,
                    TransportChoice transport, int socketBufferBytes, double warmupSeconds) {
    }

    static CommandLine commandLine() {
        CommandSpec spec = CommandSpec.create().name("relay").mixinStandardHelpOptions(true)
                .version("rx4j relay");
        spec.usageMessage().description(
                "UDP impairment relay: forwards datagrams between clients and a target, delaying, dropping, "
                        + "duplicating, reordering and rate-limiting each direction. Every impairment flag also "
                        + "exists as --up-FLAG (client -> target) and --down-FLAG (target -> client).");
        spec.addOption(option("--listen", "HOST:PORT", "address clients send to (required)").required(true).build());
        spec.addOption(option("--target", "HOST:PORT", "server address datagrams are relayed to (required)")
                .required(true).build());
        for (String scope : SCOPES) {
            for (ImpairmentOption o : ImpairmentOption.values()) {
                String where = scope.isEmpty() ? "both directions" : scope.equals("up-") ? "client -> target"
                        : "target -> client";
                spec.addOption(option(o.flag(scope), o.label(), o.description() + " [" + where + "]")
                        .hidden(!scope.isEmpty()).build());
            }
        }
        spec.addOption(option("--seed", "N", "seed of all randomness (default: drawn, and printed)").build());
        spec.addOption(option("--stats-interval", "S", "print a stats line every S seconds (0 = only at the end)")
                .defaultValue("0").build());
        spec.addOption(option("--duration", "S", "stop after S seconds (0 = run until interrupted)")
                .defaultValue("0").build());
        spec.addOption(option("--late-threshold", "MS", "a release this late counts as falling behind (default 1)")
                .defaultValue("1").build());
        spec.addOption(option("--warmup", "S", "before binding, warm the JIT for S seconds with a throw-away relay "
                + "on loopback (default 2; 0 = off)").defaultValue("2").build());
        spec.addOption(option("--transport", "auto|epoll|nio", "Netty transport (default auto: epoll if available)")
                .defaultValue("auto").build());
        spec.addOption(option("--socket-buffer", "BYTES", "SO_RCVBUF/SO_SNDBUF asked per socket (default 8388608)")
                .defaultValue("8388608").build());
        CommandLine cl = new CommandLine(spec);
        cl.setOverwrittenOptionsAllowed(true);
        return cl;
    }

    private static OptionSpec.Builder option(String name, String label, String description) {
        return OptionSpec.builder(name).type(String.class).paramLabel(label).description(description);
    }

    /**
     * @param pr the parse result
     * @return the settings
     * @throws ParameterException naming the flag when a value is malformed or out of range
     */
    static Settings settings(ParseResult pr) {
        CommandLine cl = pr.commandSpec().commandLine();
        Impairment.Builder upB = Impairment.builder();
        Impairment.Builder downB = Impairment.builder();
        for (String scope : SCOPES) {
            for (ImpairmentOption o : ImpairmentOption.values()) {
                String flag = o.flag(scope);
                String v = pr.matchedOptionValue(flag, null);
                if (v == null) {
                    continue;
                }
                try {
                    if (!scope.equals("down-")) {
                        o.apply(upB, v);
                    }
                    if (!scope.equals("up-")) {
                        o.apply(downB, v);
                    }
                } catch (IllegalArgumentException e) {
                    throw bad(cl, flag, e.getMessage());
                }
            }
            if (pr.hasMatchedOption(ImpairmentOption.BURST_LOSS.flag(scope))
                    && pr.hasMatchedOption(ImpairmentOption.GILBERT_ELLIOTT.flag(scope))) {
                throw new ParameterException(cl, "Options " + ImpairmentOption.BURST_LOSS.flag(scope) + " and "
                        + ImpairmentOption.GILBERT_ELLIOTT.flag(scope) + " both set the bursty loss; give one");
            }
        }
        Long seed = null;
        String s = pr.matchedOptionValue("--seed", null);
        if (s != null) {
            try {
                seed = Long.parseLong(s.trim());
            } catch (NumberFormatException e) {
                throw bad(cl, "--seed", "'" + s + "' is not an integer");
            }
        }
        return new Settings(address(cl, pr, "--listen"), address(cl, pr, "--target"), upB.build(), downB.build(),
                seed, nonNegative(cl, pr, "--stats-interval"), nonNegative(cl, pr, "--duration"),
                positive(cl, pr, "--late-threshold"), transport(cl, pr), socketBuffer(cl, pr),
                nonNegative(cl, pr, "--warmup"));
    }

    private static InetSocketAddress address(CommandLine cl, ParseResult pr, String flag) {
        String v = pr.matchedOptionValue(flag, "");
        int colon = v.lastIndexOf(':');
        if (colon <= 0 || colon == v.length() - 1) {
            throw bad(cl, flag, "expected HOST:PORT, got '" + v + "'");
        }
        String host = v.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        int port;
        try {
            port = Integer.parseInt(v.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw bad(cl, flag, "'" + v.substring(colon + 1) + "' is not a port");
        }
        if (port < 0 || port > 65535) {
            throw bad(cl, flag, "port must be in [0, 65535], got " + port);
        }
        InetSocketAddress a = new InetSocketAddress(host, port);
        if (a.isUnresolved()) {
            throw bad(cl, flag, "unknown host '" + host + "'");
        }
        return a;
    }

    private static double nonNegative(CommandLine cl, ParseResult pr, String flag) {
        double d = number(cl, pr, flag);
        if (d < 0) {
            throw bad(cl, flag, "must be ≥ 0, got " + d);
        }
        return d;
    }

    private static double positive(CommandLine cl, ParseResult pr, String flag) {
        double d = number(cl, pr, flag);
        if (d <= 0) {
            throw bad(cl, flag, "must be > 0, got " + d);
        }
        return d;
    }

    private static double number(CommandLine cl, ParseResult pr, String flag) {
        String v = pr.matchedOptionValue(flag, cl.getCommandSpec().findOption(flag).defaultValue());
        try {
            return ImpairmentOption.number(v);
        } catch (IllegalArgumentException e) {
            throw bad(cl, flag, e.getMessage());
        }
    }

    private static TransportChoice transport(CommandLine cl, ParseResult pr) {
        String v = pr.matchedOptionValue("--transport", "auto");
        try {
            return TransportChoice.valueOf(v.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw bad(cl, "--transport", "expected auto, epoll or nio, got '" + v + "'");
        }
    }

    private static int socketBuffer(CommandLine cl, ParseResult pr) {
        String v = pr.matchedOptionValue("--socket-buffer", "8388608");
        int n;
        try {
            n = ImpairmentOption.integer(v);
        } catch (IllegalArgumentException e) {
            throw bad(cl, "--socket-buffer", e.getMessage());
        }
        if (n < 65536) {
            throw bad(cl, "--socket-buffer", "must be ≥ 65536, got " + n);
        }
        return n;
    }

    private static ParameterException bad(CommandLine cl, String flag, String why) {
        return new ParameterException(cl, "Invalid value for option '" + flag + "': " + why);
    }

    private static String oneLine(String s) {
        String t = String.valueOf(s).replaceAll("\\s*\\R\\s*", " ").trim();
        return t;
    }

    private static int runRelay(Settings s, PrintWriter out, PrintWriter err) {
        ImpairmentRelay.Builder b = ImpairmentRelay.builder().listen(s.listen()).target(s.target())
                .upstream(s.upstream()).downstream(s.downstream()).lateThresholdMs(s.lateThresholdMs())
                .transport(s.transport()).socketBufferBytes(s.socketBufferBytes())
                .warnings(line -> {
                    err.println(line);
                    err.flush();
                });
        if (s.seed() != null) {
            b.seed(s.seed());
        }
        ImpairmentRelay relay;
        try {
            if (s.warmupSeconds() > 0) {
                RelayWarmup.run(s.warmupSeconds(), s.transport());
            }
            relay = b.start();
        } catch (Exception e) {
            err.println("relay: " + oneLine(e.getMessage()));
            err.flush();
            return CommandLine.ExitCode.SOFTWARE;
        }
        out.printf(Locale.ROOT, "relay: %s -> %s (%s, seed %d, receive buffer %d B)%n",
                describe(relay.listenAddress()), describe(relay.target()), relay.transport(), relay.seed(),
                relay.receiveBufferBytes());
        out.println("  up:   " + s.upstream());
        out.println("  down: " + s.downstream());
        out.flush();
        CountDownLatch done = new CountDownLatch(1);
        AtomicBoolean finished = new AtomicBoolean();
        long startNs = System.nanoTime();
        Runnable finish = () -> {
            if (finished.compareAndSet(false, true)) {
                relay.close();
                RelayStats end = relay.stats();
                out.printf(Locale.ROOT, "relay: done after %.1f s%n%s%n", (System.nanoTime() - startNs) / 1e9, end);
                if (end.fellBehind()) {
                    out.println("relay: WARNING: the relay fell behind during this run (see 'late' and 'relay-*' "
                            + "drops above)");
                }
                out.flush();
            }
            done.countDown();
        };
        Thread hook = new Thread(finish, "relay-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            StatsPrinter printer = new StatsPrinter(relay.stats(), startNs);
            long endNs = s.durationSeconds() > 0 ? startNs + (long) (s.durationSeconds() * 1e9) : Long.MAX_VALUE;
            long stepNs = s.statsIntervalSeconds() > 0 ? (long) (s.statsIntervalSeconds() * 1e9) : Long.MAX_VALUE;
            long nextNs = stepNs == Long.MAX_VALUE ? Long.MAX_VALUE : startNs + stepNs;
            while (true) {
                long now = System.nanoTime();
                long wake = Math.min(endNs, nextNs);
                if (wake != Long.MAX_VALUE && now >= wake) {
                    if (now >= endNs) {
                        break;
                    }
                    out.println(printer.line(relay.stats(), now));
                    out.flush();
                    nextNs += stepNs;
                    continue;
                }
                long waitNs = wake == Long.MAX_VALUE ? TimeUnit.HOURS.toNanos(1) : wake - now;
                if (done.await(waitNs, TimeUnit.NANOSECONDS)) {
                    return 0;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        finish.run();
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException e) {
            // already shutting down: the hook has run or runs finish(), which is idempotent
        }
        return 0;
    }

    static String describe(InetSocketAddress a) {
        String host = a.getAddress() != null ? a.getAddress().getHostAddress() : a.getHostString();
        return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + a.getPort();
    }
}
