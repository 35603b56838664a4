package org.rx4j.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@code --version} prints the version on every command, as each command's help says. */
class VersionFlagTest {
    @ParameterizedTest(name = "{0} --version")
    @ValueSource(strings = {"client", "server", "loopback"})
    void subcommandsPrintTheVersion(String command) {
        CliHarness.Outcome o = CliHarness.withoutTransport().run(command, "--version");
        assertEquals(0, o.exitCode(), o.err());
        assertTrue(o.out().startsWith("rxperf (rx4j) "), o.out());
    }
}
