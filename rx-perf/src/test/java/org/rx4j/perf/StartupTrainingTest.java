// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import picocli.CommandLine.ParseResult;

/**
 * The start-up cache's training runs stay valid rxperf command lines (a renamed flag would otherwise leave the
 * launcher silently without a cache) and cover the workloads users time.
 */
class StartupTrainingTest {
    @Test
    void everyTrainingRunParsesAsALoopbackRun() {
        for (String[] run : StartupTraining.RUNS) {
            ParseResult result = RxPerf.commandLine(new RxPerf()).parseArgs(run);
            assertEquals("loopback", result.subcommand().commandSpec().name(), String.join(" ", run));
        }
    }

    @Test
    void trainingCoversSendRecvAndShortCallsOnOneAndManyChains() {
        Set<String> workloads = StartupTraining.RUNS.stream()
                .map(run -> String.join(" ", run).replaceAll(".* -c (\\w+).*?( -t \\d+)?$", "$1$2"))
                .collect(Collectors.toSet());
        assertEquals(Set.of("send", "recv", "rpc", "rpc -t 8"), workloads);
    }
}
