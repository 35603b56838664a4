// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.bench;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.rx4j.security.packet.ConnectionRole;
import org.rx4j.security.packet.PacketSecurity;
import org.rx4j.security.packet.PacketSecurityAccess;
import org.rx4j.security.packet.SecurityContext;
import org.rx4j.security.rxkad.Krb5Principal;
import org.rx4j.security.rxkad.Krb5Ticket;
import org.rx4j.security.rxkad.RxkadLevel;
import org.rx4j.security.rxkad.RxkadServerSecurity;
import org.rx4j.security.rxkad.ServerKey;
import org.rx4j.security.rxkad.ServerKeySource;
import org.rx4j.security.rxkad.SessionKey;
import org.rx4j.security.rxkad.handshake.RxkadResponse;

/**
 * The server CPU one forged rxkad RESPONSE costs (docs/robustness.md "Rule: a forged RESPONSE is cheap"): an rxkad
 * server holding a DES key (kvno 1) and an aes256 rxkad_krb5 key (kvno 3) checks a RESPONSE whose ticket is random
 * bytes of {@code ticketBytes}: a v4-style ticket of kvno 1 ({@code v4}), or a Kerberos 5 EncryptedData (kvno 213)
 * whose cipher text is random ({@code krb5}: it parses, so its first block is decrypted and fails the EncTicketPart
 * check; tickets too short to have a first block apart are decrypted whole and fail the checksum). Every check
 * refuses it; the figure is the time to refuse. Each iteration also prints the benchmark thread's CPU time per
 * check ({@code cpu per forged RESPONSE}), which a loaded machine does not inflate as it does the wall-clock score.
 * Run: {@code java -jar rx-bench/target/benchmarks.jar ForgedResponseBenchmark -f 1 -wi 3 -i 5}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@State(Scope.Thread)
public class ForgedResponseBenchmark {
    /** Ticket bytes: the smallest a RESPONSE may carry, the largest v4-style ticket's format allows, the most. */
    @Param({"56", "344", "12000"})
    public int ticketBytes;

    /** The ticket's form: {@code v4} (kvno 1) or {@code krb5} (kvno 213). */
    @Param({"v4", "krb5"})
    public String form;

    private PacketSecurity server;
    private SecurityContext context;
    private byte[] body;
    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    private long ops;
    private long cpuAtStart;

    /** Makes the server, one connection's context and the forged RESPONSE body. */
    @Setup(Level.Trial)
    public void setUp() {
        Random random = new Random(29);
        byte[] aes = new byte[32];
        random.nextBytes(aes);
        server = PacketSecurityAccess.of(new RxkadServerSecurity(ServerKeySource.of(List.of(
                new ServerKey(ServerKey.RXKAD, 1, 0, desKey(0x0123456789abcdefL)),
                new ServerKey(ServerKey.RXKAD_KRB5, 3, 18, aes))), RxkadLevel.CLEAR, () -> 1_700_000_000L,
                random));
        context = new SecurityContext(server, ConnectionRole.SERVER, 0x5e6f7081, 0x00012340, 1, ch -> 0);
        server.newConnection(context);
        byte[] ticket;
        int kvno;
        if (form.equals("v4")) {
            ticket = new byte[ticketBytes];
            random.nextBytes(ticket);
            kvno = 1;
        } else {
            // An EncryptedData's DER adds a few bytes around the cipher: aim at ticketBytes in all.
            int cipherBytes = ticketBytes;
            do {
                byte[] cipher = new byte[Math.max(cipherBytes, 48)];
                random.nextBytes(cipher);
                ticket = new Krb5Ticket(new Krb5Principal("EXAMPLE.ORG", List.of("afs")), 18, 3, cipher)
                        .encodeEncryptedData();
                cipherBytes -= ticket.length - ticketBytes;
            } while (ticket.length > Math.max(ticketBytes, 80));
            kvno = Krb5Ticket.KVNO_ENC_PART_ONLY;
        }
        RxkadResponse forged = new RxkadResponse(0x5e6f7081, 0x00012340, 2, new int[4], 1, RxkadLevel.CLEAR, kvno,
                ticket);
        ByteBuf out = Unpooled.buffer(forged.encodedLength());
        forged.encode(new SessionKey(random.nextLong()), out);
        body = new byte[out.readableBytes()];
        out.readBytes(body);
    }

    /** Notes the benchmark thread's CPU time at an iteration's start. */
    @Setup(Level.Iteration)
    public void startIteration() {
        ops = 0;
        cpuAtStart = threads.getCurrentThreadCpuTime();
    }

    /** Prints the benchmark thread's CPU time per check over the iteration, µs. */
    @TearDown(Level.Iteration)
    public void endIteration() {
        long cpu = threads.getCurrentThreadCpuTime() - cpuAtStart;
        System.out.printf("  cpu per forged RESPONSE (%s, %d bytes): %.1f us%n", form, ticketBytes,
                ops == 0 ? 0.0 : cpu / 1000.0 / ops);
    }

    private static byte[] desKey(long k) {
        byte[] b = new byte[8];
        for (int i = 0; i < 8; i++) {
            b[i] = (byte) (k >>> (56 - 8 * i));
        }
        return b;
    }

    /**
     * Checks the forged RESPONSE (refused every time).
     *
     * @return the refusal's code
     */
    @Benchmark
    public int checkForgedResponse() {
        ops++;
        return server.checkResponse(context, body);
    }
}
