// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.perf;

import java.util.List;

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

    private StartupTraining() {
    }

    /**
     * Runs the training workloads and exits: 0 when all passed, else the first failing run's rxperf exit code (the
     * launcher then keeps no cache).
     *
     * @param args ignored
     */
    public static void main(String[] args) {
        RxPerf.skipNettyFlightRecorderEvents();
        System.exit(run());
    }

    /**
     * Runs the training workloads in this process.
     *
     * @return 0 when every run exited 0, else the first non-zero rxperf exit code
     */
    static int run() {
        for (String[] run : RUNS) {
            int code = RxPerf.commandLine(new RxPerf()).execute(run);
            if (code != 0) {
                return code;
            }
        }
        return 0;
    }
}
