// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.rx4j.config.RxConfig;
import org.rx4j.counters.RxCounter;
import org.rx4j.engine.telemetry.RxCounters;
import org.rx4j.testing.Captures;
import org.rx4j.wire.RxConstants;

/**
 * Stateful fuzzing of the engine (docs/robustness.md "Fuzzing"): sequences of datagrams — a recorded live session's
 * client datagrams in order, mutated, mixed with the OpenAFS captures — go into a server engine
 * ({@link EngineFuzzHarness}) while virtual time passes, and the invariants are checked after every input and at
 * shutdown (no buffer left).
 *
 * <p>{@link #seededSequences()} runs in the default suite: {@code rx4j.stateful.sequences} sequences (default 4,000,
 * about 10 s on the 2-core machine; {@code -Plong-fuzz} raises it) from seed {@code rx4j.stateful.seed}.
 * {@link #jazzerSequences} is the same harness as a Jazzer target; a normal run replays its (empty) seed corpus,
 * {@code JAZZER_FUZZ=1 mvn -B -pl rx-core test -Dtest=EngineStatefulFuzzTest -Plong-fuzz
 * -Dsurefire.failIfNoSpecifiedTests=false} fuzzes for its {@code maxDuration}.
 */
class EngineStatefulFuzzTest {
    private static final long MS = 1_000_000L;
    private static final long RECORDING_SEED = 77;
    /**
     * The engine seed of every fuzzed server: the recording's server engine's ({@link SimNetwork} derives it as
     * seed·31 + 2), so its reachability PINGs carry the serials the recorded PING_RESPONSEs echo (a keyed hash of the
     * engine's secret, docs/robustness.md "Rule: stateless reachability challenge") and sequences reach running
     * calls.
     */
    private static final long ENGINE_SEED = RECORDING_SEED * 31 + 2;
    private static List<byte[]> session;
    private static List<byte[]> captures;

    private static synchronized List<byte[]> session() {
        if (session == null) {
            session = EngineFuzzHarness.recordSession(RECORDING_SEED);
            captures = Captures.allPayloads();
        }
        return session;
    }

    private static final int[] INTERESTING = {0, 1, 2, 0x7F, 0x80, 0xFF};

    /** Applies 1..4 random mutations to a copy of {@code in}. */
    static byte[] mutate(byte[] in, Random r) {
        byte[] b = in.clone();
        int n = 1 + r.nextInt(4);
        for (int i = 0; i < n && b.length > 0; i++) {
            switch (r.nextInt(7)) {
                case 0 -> b[r.nextInt(b.length)] ^= (byte) (1 << r.nextInt(8));
                case 1 -> b[r.nextInt(b.length)] = (byte) INTERESTING[r.nextInt(INTERESTING.length)];
                case 2 -> b = java.util.Arrays.copyOf(b, r.nextInt(b.length + 1)); // truncate
                case 3 -> { // a header field (seq 12..15, serial 16..19, callNumber 8..11) set to an edge value
                    int[] fields = {8, 12, 16};
                    int f = fields[r.nextInt(fields.length)];
                    if (b.length >= f + 4) {
                        int v = switch (r.nextInt(4)) {
                            case 0 -> 0;
                            case 1 -> -1;
                            case 2 -> r.nextInt(300);
                            default -> r.nextInt();
                        };
                        b[f] = (byte) (v >>> 24);
                        b[f + 1] = (byte) (v >>> 16);
                        b[f + 2] = (byte) (v >>> 8);
                        b[f + 3] = (byte) v;
                    }
                }
                case 4 -> { // flags byte
                    if (b.length > 21) {
                        b[21] = (byte) r.nextInt(256);
                    }
                }
                case 5 -> { // type byte
                    if (b.length > 20) {
                        b[20] = (byte) r.nextInt(16);
                    }
                }
                default -> { // ACK trailer / body words: a random 4-byte word at a random aligned offset
                    if (b.length >= RxConstants.HEADER_SIZE + 4) {
                        int off = RxConstants.HEADER_SIZE + 4 * r.nextInt((b.length - RxConstants.HEADER_SIZE) / 4);
                        int v = r.nextBoolean() ? -1 : r.nextInt(70000);
                        b[off] = (byte) (v >>> 24);
                        b[off + 1] = (byte) (v >>> 16);
                        b[off + 2] = (byte) (v >>> 8);
                        b[off + 3] = (byte) v;
                    }
                }
            }
        }
        return b;
    }

    /** One sequence: the session in order, each datagram mutated with probability 1/3, captures mixed in. */
    static long[] runSequence(long seed) {
        Random r = new Random(seed);
        List<byte[]> s = session();
        // Half the endpoints skip the reachability check, so mid-session starts still reach running calls.
        RxConfig config = r.nextBoolean() ? RxConfig.defaults() : RxConfig.builder().checkReach(false).build();
        try (EngineFuzzHarness h = new EngineFuzzHarness(config, ENGINE_SEED)) {
            int start = r.nextInt(3) != 0 ? 0 : r.nextInt(Math.max(1, s.size() / 2));
            int len = 20 + r.nextInt(80);
            for (int i = start; i < Math.min(s.size(), start + len); i++) {
                byte[] d = s.get(i);
                int dice = r.nextInt(12);
                if (dice < 4) {
                    d = mutate(d, r);
                } else if (dice == 4) {
                    d = mutate(captures.get(r.nextInt(captures.size())), r);
                } else if (dice == 5) {
                    d = s.get(r.nextInt(s.size())); // replayed out of order
                }
                InetSocketAddress from = r.nextInt(20) == 0
                        ? new InetSocketAddress("127.0.0." + (2 + r.nextInt(200)), 7001) : EngineFuzzHarness.CLIENT;
                h.feed(d, from, r.nextInt(8) == 0 ? r.nextInt(3000) * MS : r.nextInt(3) * MS);
            }
            RxCounters t = h.engine.totals();
            return new long[] {h.datagramsIn, h.malformed, h.datagramsOut, t.get(RxCounter.CALLS_STARTED), t.get(RxCounter.ACKS_REJECTED),
                t.get(RxCounter.JUMBOGRAMS_REJECTED)};
        }
    }

    @Test
    void seededSequences() {
        int sequences = Integer.getInteger("rx4j.stateful.sequences", 4000);
        long seed = Long.getLong("rx4j.stateful.seed", 20261201L);
        session();
        assertTrue(session.size() > 80, "the recorded session has " + session.size() + " datagrams");
        long[] sum = new long[6];
        for (int i = 0; i < sequences; i++) {
            try {
                long[] r = runSequence(seed + i);
                for (int k = 0; k < sum.length; k++) {
                    sum[k] += r[k];
                }
            } catch (AssertionError | RuntimeException e) {
                throw new AssertionError("sequence seed " + (seed + i) + " failed", e);
            }
        }
        System.out.printf("stateful fuzz: %d sequences, %d datagrams in (%d malformed), %d out, %d server calls "
                + "started, %d ACKs rejected, %d jumbograms rejected%n", sequences, sum[0], sum[1], sum[2], sum[3],
                sum[4], sum[5]);
        assertTrue(sum[3] > sequences / 4, "the sequences reach running calls: " + sum[3]);
    }

    /** Jazzer target: the fuzzer's bytes choose session datagrams, mutations and time steps. */
    @FuzzTest(maxDuration = "2m")
    void jazzerSequences(FuzzedDataProvider data) {
        List<byte[]> s = session();
        try (EngineFuzzHarness h = new EngineFuzzHarness(RxConfig.defaults(), ENGINE_SEED)) {
            int i = data.consumeInt(0, s.size() - 1);
            while (data.remainingBytes() > 0 && i < s.size()) {
                byte[] d;
                switch (data.consumeInt(0, 3)) {
                    case 0 -> d = s.get(i++);
                    case 1 -> d = mutate(s.get(i++), new Random(data.consumeLong()));
                    case 2 -> d = data.consumeBytes(data.consumeInt(0, 2000));
                    default -> d = captures.get(data.consumeInt(0, captures.size() - 1));
                }
                h.feed(d, EngineFuzzHarness.CLIENT, data.consumeInt(0, 4000) * MS);
            }
        }
    }

    /** The harness's own check: a broken invariant is reported (guards against a fuzzer that cannot fail). */
    @Test
    void theHarnessReportsLeftBuffers() {
        EngineFuzzHarness h = new EngineFuzzHarness(RxConfig.defaults(), 3);
        io.netty.buffer.ByteBuf leaked = h.alloc.buffer(10);
        boolean reported = false;
        try {
            h.close();
        } catch (AssertionError expected) {
            reported = true;
        }
        leaked.release();
        assertTrue(reported, "a buffer left over fails the sequence");
        new ArrayList<>().clear();
    }
}
