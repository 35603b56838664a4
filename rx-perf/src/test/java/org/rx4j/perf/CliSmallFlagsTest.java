// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@code --version} prints the version on every command, as each command's help says; an empty -s is refused. */
class CliSmallFlagsTest {
    @org.junit.jupiter.api.Test
    void emptyServerHostIsAUsageError() {
        CliHarness.Outcome o = CliHarness.withoutTransport().run("client", "-c", "send", "-s", "");
        assertEquals(2, o.exitCode());
        assertTrue(o.err().startsWith("rxperf: Invalid value for option '-s': the server host is empty"), o.err());
    }

    @ParameterizedTest(name = "{0} --version")
    @ValueSource(strings = {"client", "server", "loopback"})
    void subcommandsPrintTheVersion(String command) {
        CliHarness.Outcome o = CliHarness.withoutTransport().run(command, "--version");
        assertEquals(0, o.exitCode(), o.err());
        assertTrue(o.out().startsWith("rxperf (rx4j) "), o.out());
    }
}
