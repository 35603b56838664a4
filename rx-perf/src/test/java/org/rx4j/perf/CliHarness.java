// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.perf;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Optional;
import java.util.function.LongSupplier;
import org.rx4j.perf.client.CpuClock;
import org.rx4j.perf.fake.InMemoryTransportFactory;
import org.rx4j.perf.transport.PerfTransportFactory;
import picocli.CommandLine;

/** Runs the rxperf command line in-process with captured stdout/stderr and a chosen transport and clock. */
final class CliHarness {
    /** What one invocation printed and returned. */
    record Outcome(int exitCode, String out, String err) {
    }

    private final PerfTransportFactory factory;
    private final LongSupplier clock;
    private final CpuClock cpuClock;

    CliHarness(PerfTransportFactory factory, LongSupplier clock) {
        this(factory, clock, CpuClock.system());
    }

    CliHarness(PerfTransportFactory factory, LongSupplier clock, CpuClock cpuClock) {
        this.factory = factory;
        this.clock = clock;
        this.cpuClock = cpuClock;
    }

    /** A harness on a fresh in-memory transport and the system clock. */
    static CliHarness inMemory() {
        return new CliHarness(new InMemoryTransportFactory(), System::nanoTime);
    }

    /** A harness with no transport at all. */
    static CliHarness withoutTransport() {
        return new CliHarness(null, System::nanoTime);
    }

    Outcome run(String... args) {
        RxPerf app = new RxPerf(() -> Optional.ofNullable(factory), server -> { }, clock, cpuClock);
        CommandLine commandLine = RxPerf.commandLine(app);
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        commandLine.setOut(new PrintWriter(out, true));
        commandLine.setErr(new PrintWriter(err, true));
        int exitCode = commandLine.execute(args);
        return new Outcome(exitCode, out.toString(), err.toString());
    }
}
