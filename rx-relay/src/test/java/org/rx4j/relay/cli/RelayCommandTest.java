// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.relay.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class RelayCommandTest {
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        return RelayCommand.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
    }

    private String[] errLines() {
        return err.toString().split("\\R");
    }

    @Test
    void outOfRangeValueIsOneLineNamingTheFlagAndExit2() {
        assertEquals(2, run("--listen", "127.0.0.1:0", "--target", "127.0.0.1:9", "--up-loss", "150"));
        String[] lines = errLines();
        assertEquals(2, lines.length, err.toString());
        assertTrue(lines[0].startsWith("relay: Invalid value for option '--up-loss':"), lines[0]);
        assertEquals("Try 'relay --help'", lines[1]);
        assertEquals("", out.toString());
    }

    @Test
    void malformedValuesNameTheirFlag() {
        assertEquals(2, run("--listen", "127.0.0.1:0", "--target", "nohostport", "--delay", "5"));
        assertTrue(errLines()[0].contains("'--target'"), err.toString());
        err.getBuffer().setLength(0);
        assertEquals(2, run("--listen", "127.0.0.1:0", "--target", "127.0.0.1:9", "--rate", "fast"));
        assertTrue(errLines()[0].contains("'--rate'"), err.toString());
        err.getBuffer().setLength(0);
        assertEquals(2, run("--listen", "127.0.0.1:0", "--target", "127.0.0.1:9", "--down-burst-loss", "1"));
        assertTrue(errLines()[0].contains("'--down-burst-loss'"), err.toString());
    }

    @Test
    void unknownFlagAndMissingRequiredAreUsageErrors() {
        assertEquals(2, run("--listen", "127.0.0.1:0", "--target", "127.0.0.1:9", "--dely", "5"));
        assertTrue(errLines()[0].contains("--dely"), err.toString());
        err.getBuffer().setLength(0);
        assertEquals(2, run("--listen", "127.0.0.1:0"));
        assertTrue(errLines()[0].contains("--target"), err.toString());
    }

    @Test
    void perDirectionFlagsOverrideBothDirectionFlags() {
        var cl = RelayCommand.commandLine();
        var pr = cl.parseArgs("--listen", "127.0.0.1:7010", "--target", "127.0.0.1:7009", "--delay", "5",
                "--loss", "0.5", "--up-loss", "2", "--down-rate", "10M", "--down-queue", "30", "--seed", "7",
                "--burst-loss", "1:5");
        RelayCommand.Settings s = RelayCommand.settings(pr);
        assertEquals(5_000_000, s.upstream().delayNs());
        assertEquals(5_000_000, s.downstream().delayNs());
        assertEquals(0.02, s.upstream().lossProbability(), 1e-15);
        assertEquals(0.005, s.downstream().lossProbability(), 1e-15);
        assertEquals(0, s.upstream().rateBitsPerSecond());
        assertEquals(10_000_000, s.downstream().rateBitsPerSecond());
        assertEquals(30, s.downstream().queuePackets());
        assertEquals(0.2, s.upstream().burstLoss().badToGood(), 1e-12);
        assertEquals(7L, s.seed());
        assertEquals(7010, s.listen().getPort());
    }

    @Test
    void ipv6AddressesInBrackets() {
        var pr = RelayCommand.commandLine().parseArgs("--listen", "[::1]:7010", "--target", "[::1]:7009");
        RelayCommand.Settings s = RelayCommand.settings(pr);
        assertEquals("0:0:0:0:0:0:0:1", s.listen().getAddress().getHostAddress());
        assertEquals(7009, s.target().getPort());
        assertEquals("[0:0:0:0:0:0:0:1]:7010", RelayCommand.describe(s.listen()));
    }

    @Test
    @Timeout(20)
    void portInUseIsARunTimeFailureExit1() throws Exception {
        try (java.net.DatagramSocket taken = new java.net.DatagramSocket(
                new java.net.InetSocketAddress("127.0.0.1", 0))) {
            assertEquals(1, run("--listen", "127.0.0.1:" + taken.getLocalPort(), "--target", "127.0.0.1:9",
                    "--warmup", "0"));
            String[] lines = errLines();
            assertEquals(1, lines.length, err.toString());
            assertTrue(lines[0].startsWith("relay: cannot bind UDP 127.0.0.1:" + taken.getLocalPort()), lines[0]);
        }
    }

    @Test
    void helpExitsZero() {
        assertEquals(0, run("--help"));
        assertTrue(out.toString().contains("--delay=MS"), out.toString());
    }

    @Test
    @Timeout(20)
    void runsForItsDurationAndPrintsSettingsAndSummary() {
        assertEquals(0, run("--listen", "127.0.0.1:0", "--target", "127.0.0.1:9", "--delay", "5",
                "--duration", "0.2", "--seed", "3", "--warmup", "0.2"));
        String text = out.toString();
        assertTrue(text.startsWith("relay: 127.0.0.1:"), text);
        assertTrue(text.contains("seed 3"), text);
        assertTrue(text.contains("up:   delay 5 ms"), text);
        assertTrue(text.contains("relay: done after"), text);
    }
}
