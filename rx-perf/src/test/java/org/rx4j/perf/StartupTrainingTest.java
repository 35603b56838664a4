// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
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

    @Test
    void theTrainingRunsEveryWorkloadInOrderAndPassesWhenAllPass() throws InterruptedException {
        List<String> ran = new ArrayList<>();
        assertEquals(0, StartupTraining.run(Duration.ofMinutes(1), r -> {
            ran.add(String.join(" ", r));
            return 0;
        }));
        assertEquals(StartupTraining.RUNS.stream().map(r -> String.join(" ", r)).toList(), ran);
    }

    @Test
    void theFirstFailingRunEndsTheTrainingWithItsExitCode() throws InterruptedException {
        List<String[]> ran = new ArrayList<>();
        assertEquals(3, StartupTraining.run(Duration.ofMinutes(1), r -> {
            ran.add(r);
            return ran.size() == 2 ? 3 : 0;
        }));
        assertEquals(2, ran.size(), "no run after the failing one");
    }

    @Test
    void aRunThatNeverEndsFailsTheTrainingAtTheTimeLimit() throws InterruptedException {
        CountDownLatch never = new CountDownLatch(1);
        try {
            assertEquals(StartupTraining.TIMED_OUT, StartupTraining.run(Duration.ofMillis(50), r -> {
                try {
                    never.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return 0;
            }));
        } finally {
            never.countDown();
        }
    }
}
