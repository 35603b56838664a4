// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Bad command lines: exactly one message line naming the flag, one hint line, exit 2, nothing on stdout, no usage
 * dump and no stack trace.
 */
class CliUsageErrorTest {
    private final CliHarness cli = CliHarness.inMemory();

    private void assertUsageError(String expectedMessage, String hint, String... args) {
        CliHarness.Outcome outcome = cli.run(args);
        assertEquals(2, outcome.exitCode(), outcome.err());
        assertEquals("", outcome.out());
        assertEquals("rxperf: " + expectedMessage + "\nTry '" + hint + " --help'\n",
                outcome.err().replace("\r\n", "\n"));
    }

    @ParameterizedTest(name = "client {0} {1}")
    @CsvSource(delimiter = '|', value = {
        "-t|200|Invalid value for option '-t': 200 is not in 1..128",
        "-t|0|Invalid value for option '-t': 0 is not in 1..128",
        "-T|0|Invalid value for option '-T': 0 is not in 1..2147483647",
        "-b|-1|Invalid value for option '-b': -1 is not in 0..2147483647",
        "-S|-3|Invalid value for option '-S': -3 is not in 0..2147483647",
        "-R|-3|Invalid value for option '-R': -3 is not in 0..2147483647",
        "-p|0|Invalid value for option '-p': 0 is not in 1..65535",
        "-p|65536|Invalid value for option '-p': 65536 is not in 1..65535",
        "-r|524289|Invalid value for option '-r': 524289 is not in 1..524288",
        "-w|0|Invalid value for option '-w': 0 is not in 1..524288",
        "-W|0|Invalid value for option '-W': 0 is not in 1..255",
        "-W|256|Invalid value for option '-W': 256 is not in 1..255",
        "--twind|300|Invalid value for option '--twind': 300 is not in 1..255",
        "--rwind|0|Invalid value for option '--rwind': 0 is not in 1..255",
        "--jumbo-max|47|Invalid value for option '--jumbo-max': 47 is not in 1..46",
        "-m|519|Invalid value for option '-m': 519 is not in 520..65535",
        "-m|65536|Invalid value for option '-m': 65536 is not in 520..65535",
        "-u|0|Invalid value for option '-u': 0 is not in 1..2097151",
        "-P|0|Invalid value for option '-P': 0 is not in 1..999",
        "-P|1000|Invalid value for option '-P': 1000 is not in 1..999",
        "--spin-us|-1|Invalid value for option '--spin-us': -1 is not in 0..10000",
        "--spin-us|10001|Invalid value for option '--spin-us': 10001 is not in 0..10000",
        "--slice-us|99|Invalid value for option '--slice-us': 99 is not 0 or in 100..100000",
        "--slice-us|100001|Invalid value for option '--slice-us': 100001 is not 0 or in 100..100000",
        "--interval|0|Invalid value for option '--interval': 0.0 is not in (0, 86400] seconds",
        "--time|0|Invalid value for option '--time': 0.0 is not in (0, 86400] seconds",
        "--time|86401|Invalid value for option '--time': 86401.0 is not in (0, 86400] seconds",
        "--time|-2|Invalid value for option '--time': -2.0 is not in (0, 86400] seconds",
        "--omit|-1|Invalid value for option '--omit': -1.0 is not in [0, 86400) seconds",
        "-b|abc|Invalid value for option '-b': 'abc' is not a number",
        "-T|1x|Invalid value for option '-T': '1x' is not a number",
        "-b|99999999999|Invalid value for option '-b': '99999999999' is out of range",
        "--transport|foo|Invalid value for option '--transport': 'foo' is not one of nio, epoll, auto",
        "--cc|cubic|Invalid value for option '--cc': cubic is not one of newreno, bbr",
    })
    void clientValueOutOfRange(String flag, String value, String message) {
        assertUsageError(message, "rxperf client", "client", "-c", "send", flag, value);
    }

    @Test
    void unknownFlagIsNamedEvenWithoutDashC() {
        assertUsageError("Unknown option: '-x'", "rxperf client", "client", "-x");
        assertUsageError("Unknown option: '-V'", "rxperf client", "client", "-c", "send", "-V");
    }

    @Test
    void missingOrBadCommand() {
        assertUsageError("Missing required option: '-c=send|recv|rpc|file'", "rxperf client", "client");
        assertUsageError("Invalid value for option '-c': 'foo' is not one of send, recv, rpc, file", "rxperf client",
                "client", "-c", "foo");
        assertUsageError("Missing required parameter for option '-b' (BYTES)", "rxperf client",
                "client", "-c", "send", "-b");
        assertUsageError("Missing subcommand: server, client or loopback", "rxperf");
        assertUsageError("Unmatched argument at index 3: 'extra'", "rxperf client",
                "client", "-c", "send", "extra");
    }

    @Test
    void flagCombinations() {
        assertUsageError("Options -N and -D cannot be used together (-D prints the statistics -N turns off)",
                "rxperf client", "client", "-c", "send", "-N", "-D");
        assertUsageError("Missing option -f: -c file needs a word list file", "rxperf loopback",
                "loopback", "-c", "file");
        assertUsageError("Options -c file and -t 2 cannot be used together (file runs one thread, as OpenAFS)",
                "rxperf client", "client", "-c", "file", "-f", "x", "-t", "2");
    }

    @Test
    void timeAndOmitCombinations() {
        assertUsageError("Option --omit needs --time (it leaves the first seconds of a timed run out)",
                "rxperf client", "client", "-c", "send", "--omit", "2");
        assertUsageError("Invalid value for option '--omit': 5.0 is not less than --time 5.0", "rxperf client",
                "client", "-c", "send", "--time", "5", "--omit", "5");
        assertUsageError("Options -T and --time cannot be used together (a run is counted or timed)",
                "rxperf loopback", "loopback", "-c", "rpc", "-T", "10", "--time", "1");
        CliHarness.Outcome notANumber = cli.run("client", "-c", "send", "--time", "1s");
        assertEquals(2, notANumber.exitCode(), notANumber.err());
        assertTrue(notANumber.err().startsWith("rxperf: Invalid value for option '--time': "), notANumber.err());
        assertEquals(2, notANumber.err().lines().count(), notANumber.err());
    }

    @Test
    void badWordFileNamesFlagFileAndLine(@TempDir Path dir) throws IOException {
        Path words = dir.resolve("words");
        Files.writeString(words, "10\n\nten\n");
        assertUsageError("Invalid value for option '-f': " + words + " line 3: 'ten' is not a number",
                "rxperf client", "client", "-c", "file", "-f", words.toString());
        assertUsageError("Invalid value for option '-f': cannot read " + dir.resolve("none") + ": no such file",
                "rxperf client", "client", "-c", "file", "-f", dir.resolve("none").toString());
    }

    @Test
    void serverRanges() {
        assertUsageError("Invalid value for option '-s': minprocs 5 is greater than -S maxprocs 3", "rxperf server",
                "server", "-s", "5", "-S", "3");
        assertUsageError("Invalid value for option '-S': 0 is not in 1..1024", "rxperf server", "server", "-S", "0");
        assertUsageError("Invalid value for option '-p': 70000 is not in 0..65535", "rxperf server",
                "server", "-p", "70000");
        assertUsageError("Invalid value for option '-W': 256 is not in 1..255", "rxperf server", "server", "-W", "256");
        assertUsageError("Unknown options: '-c', 'send'", "rxperf server", "server", "-c", "send");
        assertUsageError("Invalid value for option '--debug-replies': sometimes is not one of always, loopback, "
                + "no-amplification, never", "rxperf server", "server", "--debug-replies", "sometimes");
    }

    @Test
    void loopbackChecksLikeTheClient() {
        assertUsageError("Invalid value for option '-t': 129 is not in 1..128", "rxperf loopback",
                "loopback", "-c", "rpc", "-t", "129");
    }

    @Test
    void helpAndVersionExitZero() {
        CliHarness.Outcome help = cli.run("client", "--help");
        assertEquals(0, help.exitCode());
        assertTrue(help.out().startsWith("Usage: rxperf client"), help.out());
        CliHarness.Outcome version = cli.run("--version");
        assertEquals(0, version.exitCode());
        assertTrue(version.out().startsWith("rxperf (rx4j) "), version.out());
        assertFalse(version.out().contains("${"), "version resource is filtered by the build: " + version.out());
    }

    /** picocli formats each description with String.format; a bare '%' makes it print a WARN line on stderr. */
    @ParameterizedTest(name = "{0} --help")
    @CsvSource({"client", "server", "loopback"})
    void helpTextsFormatWithoutPicocliWarnings(String command) {
        PrintStream saved = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        CliHarness.Outcome help;
        try {
            System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
            help = cli.run(command, "--help");
        } finally {
            System.setErr(saved);
        }
        assertEquals(0, help.exitCode());
        String err = captured.toString(StandardCharsets.UTF_8) + help.err();
        assertFalse(err.contains("picocli WARN"), err);
        assertTrue(help.out().replaceAll("\\s+", " ").contains("random loss below 2% is not congestion"), help.out());
    }
}
