// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.rx4j.perf.rx.RxPerfTransportFactory;

/**
 * rxperf with {@code --security} over rx4j's real transport on loopback: each rxkad level with --verify for send,
 * recv and rpc, the client minting its ticket from the server's KeyFile (docs/rxperf.md "Security"), and the flags'
 * usage errors.
 */
@Timeout(120)
class RxkadLoopbackRunTest {
    @TempDir
    Path dir;

    private static CliHarness.Outcome run(String... args) {
        return new CliHarness(new RxPerfTransportFactory(), System::nanoTime).run(args);
    }

    /** A KeyFile as asetkey writes it: a count, then kvno and 8 key bytes per key (big-endian); newest kvno 4. */
    private Path keyFile() throws IOException {
        ByteBuffer b = ByteBuffer.allocate(4 + 2 * 12);
        b.putInt(2);
        b.putInt(3).putLong(0x1f2e3d4c5b6a7988L);
        b.putInt(4).putLong(0x0123456789abcdefL); // DES odd parity in every byte
        Path p = dir.resolve("KeyFile");
        Files.write(p, b.array());
        return p;
    }

    @ParameterizedTest(name = "--security {0}")
    @ValueSource(strings = {"clear", "auth", "crypt"})
    void everyWorkloadRunsVerifiedAtEachLevel(String level) throws IOException {
        String keys = keyFile().toString();
        for (String command : new String[] {"send", "recv"}) {
            CliHarness.Outcome o = run("loopback", "-c", command, "-b", "262144", "-T", "4", "--verify",
                    "--security", level, "--keyfile", keys);
            assertEquals(0, o.exitCode(), command + " " + level + ": " + o.err());
            assertTrue(o.out().startsWith(command.toUpperCase() + ": threads\t1, times\t4, bytes\t262144:"), o.out());
        }
        CliHarness.Outcome o = run("loopback", "-c", "rpc", "-S", "4", "-R", "3000", "-T", "50", "--verify",
                "--security", level, "--keyfile", keys);
        assertEquals(0, o.exitCode(), "rpc " + level + ": " + o.err());
        assertTrue(o.out().startsWith("RPC: threads\t1, times\t50, write bytes\t4, read bytes\t3000:"), o.out());
    }

    /** -D shows the handshake: the client's stats block has its security group with the one RESPONSE it sent. */
    @Test
    void statsDumpShowsTheSecurityHandshake() throws IOException {
        CliHarness.Outcome o = run("loopback", "-c", "rpc", "-S", "4", "-R", "30", "-T", "3", "-D",
                "--security", "crypt", "--keyfile", keyFile().toString());
        assertEquals(0, o.exitCode(), o.err());
        String client = o.out().substring(o.out().indexOf("Rx statistics (client):"));
        assertTrue(java.util.regex.Pattern.compile("(?m)^  security\\n(    .*\\n)*    responsesSent +1$")
                .matcher(client).find(), o.out());
    }

    @Test
    void aLevelWithoutAKeyFileOrAnUnknownLevelIsAUsageError() {
        CliHarness.Outcome missing = run("loopback", "-c", "send", "-b", "1000", "--security", "crypt");
        assertEquals(2, missing.exitCode(), missing.err());
        assertTrue(missing.err().contains("--security crypt needs --keyfile"), missing.err());
        CliHarness.Outcome unknown = run("loopback", "-c", "send", "-b", "1000", "--security", "secret");
        assertEquals(2, unknown.exitCode(), unknown.err());
        assertTrue(unknown.err().contains("secret is not one of none, clear, auth, crypt"), unknown.err());
    }

    @Test
    void anUnreadableKeyFileFailsTheRun() {
        CliHarness.Outcome o = run("loopback", "-c", "send", "-b", "1000", "--security", "auth", "--keyfile",
                dir.resolve("absent").toString());
        assertEquals(1, o.exitCode(), o.err());
    }
}
