// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.ParseResult;

/**
 * A command line that starts with a subcommand's name builds that subcommand's model alone (the others' options are
 * never read at start-up); any other first argument gets all three, so the usage, the version and a misspelt
 * subcommand read as before.
 */
class SubcommandModelTest {
    private static List<String> subcommands(CommandLine cl) {
        return List.copyOf(cl.getSubcommands().keySet());
    }

    @Test
    void aNamedSubcommandIsTheOnlyOneBuilt() {
        for (String name : List.of("server", "client", "loopback")) {
            CommandLine cl = RxPerf.commandLine(new RxPerf(), name, "-p", "7009");
            assertEquals(List.of(name), subcommands(cl));
        }
        ParseResult r = RxPerf.commandLine(new RxPerf(), "client", "-c", "rpc", "-T", "5")
                .parseArgs("client", "-c", "rpc", "-T", "5");
        assertEquals("client", r.subcommand().commandSpec().name());
    }

    @Test
    void anythingElseGetsEverySubcommandInUsageOrder() {
        for (String[] args : List.of(new String[0], new String[] {"--help"}, new String[] {"-V"},
                new String[] {"clinet"}, new String[] {"-c", "rpc"})) {
            assertEquals(List.of("server", "client", "loopback"), subcommands(RxPerf.commandLine(new RxPerf(), args)),
                    String.join(" ", args));
        }
        assertEquals(List.of("server", "client", "loopback"), subcommands(RxPerf.commandLine(new RxPerf())));
    }
}
