// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.perf;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * The training run that scripts/rxperf records its start-up cache from (docs/rxperf.md, "The launcher"): the
 * workloads users time, each a short {@code rxperf loopback} run in this one process, so the cache holds the classes,
 * lambdas and method profiles of the send, receive and short-call paths on both the client's and the server's side.
 * A cache trained on a 1 MiB send alone left the short-call path's classes to load, link and profile inside the timed
 * calls (docs/benchmarks.md, "The launcher").
 */
public final class StartupTraining {
    /** The loopback runs, in order: bulk send and receive, one short-call chain, eight short-call chains. */
    static final List<String[]> RUNS = List.of(
            new String[] {"loopback", "-c", "send", "-b", "1048576", "-T", "20"},
            new String[] {"loopback", "-c", "recv", "-b", "1048576", "-T", "10"},
            new String[] {"loopback", "-c", "rpc", "-S", "4", "-R", "4", "-T", "3000"},
            new String[] {"loopback", "-c", "rpc", "-S", "4", "-R", "4", "-T", "400", "-t", "8"});

    /**
     * Longest the whole training may take: it needs about 10 s on a 2-core machine; a run that hangs (a call whose
     * future never completes) must fail the recording, not block the user's first {@code scripts/rxperf} forever.
     */
    static final Duration TIME_LIMIT = Duration.ofSeconds(180);
    /** The exit code when the training ran past {@link #TIME_LIMIT}, as timeout(1)'s. */
    static final int TIMED_OUT = 124;

    private StartupTraining() {
    }

    /**
     * Runs the training workloads and exits: 0 when all passed, else the first failing run's rxperf exit code, or
     * {@link #TIMED_OUT} when they ran past {@link #TIME_LIMIT} (the launcher then keeps no cache).
     *
     * @param args ignored
     * @throws InterruptedException if interrupted while waiting for the runs
     */
    public static void main(String[] args) throws InterruptedException {
        RxPerf.skipNettyFlightRecorderEvents();
        System.exit(run(TIME_LIMIT, r -> RxPerf.commandLine(new RxPerf()).execute(r)));
    }

    /**
     * Runs the training workloads one after another on a thread of their own, for at most {@code limit}.
     *
     * @param limit the longest the whole training may take
     * @param rxperf runs one rxperf command line and returns its exit code
     * @return 0 when every run exited 0, else the first non-zero exit code; {@link #TIMED_OUT} when the runs had not
     *     ended within {@code limit} (the thread is left running, a daemon: the caller exits)
     * @throws InterruptedException if interrupted while waiting for the runs
     */
    static int run(Duration limit, Function<String[], Integer> rxperf) throws InterruptedException {
        AtomicInteger code = new AtomicInteger(1); // kept when a run throws: a failure, not a time-out
        Thread runs = new Thread(() -> {
            for (String[] run : RUNS) {
                int c = rxperf.apply(run);
                if (c != 0) {
                    code.set(c);
                    return;
                }
            }
            code.set(0);
        }, "rxperf-training");
        runs.setDaemon(true);
        runs.start();
        runs.join(limit.toMillis());
        if (runs.isAlive()) {
            System.err.println("rxperf: the start-up training did not end within " + limit.toSeconds() + " s");
            return TIMED_OUT;
        }
        return code.get();
    }
}
