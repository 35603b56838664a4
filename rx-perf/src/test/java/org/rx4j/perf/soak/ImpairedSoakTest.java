// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.perf.soak;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.rx4j.relay.ImpairmentRelay;
import org.rx4j.relay.core.Impairment;
import org.rx4j.rpc.RxConnection;
import org.rx4j.rpc.RxEndpoint;
import org.rx4j.rpc.RxService;
import org.rx4j.testing.LeakCheckExtension;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The soak (docs/robustness.md "Soak"): mixed send / recv / rpc calls between two rx4j endpoints through the impairment
 * relay ({@link ImpairmentRelay}: 2 % loss, 2 % reordering, 1 % duplication each way), pattern-verified, for {@code
 * rx4j.soak.seconds} (the {@code -Psoak} profile sets 600; the default suite skips it). Asserts zero failed calls, zero
 * corrupted bytes and no leaked buffer ({@link LeakCheckExtension}: every tracked buffer counted); prints the call
 * counts and the used heap after a full GC at a quarter of the run and at its end (a figure for docs/robustness.md, not
 * an assertion).
 *
 * <pre>
 * mvn -B -ntp -o -pl rx-perf -am test -Psoak -Dtest=ImpairedSoakTest -Dsurefire.failIfNoSpecifiedTests=false \
 *     [-Drx4j.soak.seconds=60]
 * </pre>
 */
@ExtendWith(LeakCheckExtension.class)
class ImpairedSoakTest {
    private static final int SVC = 4242;
    private static final int THREADS = 4;

    static byte pattern(long i) {
        return (byte) (i % 251);
    }

    /** Request: mode byte, then mode 0 (rpc) any bytes echoed; 1 (send) pattern bytes checked; 2 (recv) a length. */
    private static void serve(org.rx4j.rpc.RxCall call) throws IOException {
        InputStream in = call.input();
        int mode = in.read();
        if (mode == 0) {
            call.output().write(in.readAllBytes());
        } else if (mode == 1) {
            byte[] buf = new byte[65536];
            long pos = 0;
            long bad = 0;
            int n;
            while ((n = in.read(buf)) > 0) {
                for (int i = 0; i < n; i++) {
                    if (buf[i] != pattern(pos + i)) {
                        bad++;
                    }
                }
                pos += n;
            }
            call.output().write(ByteBuffer.allocate(16).putLong(pos).putLong(bad).array());
        } else {
            int len = ByteBuffer.wrap(in.readAllBytes()).getInt();
            byte[] chunk = new byte[65536];
            for (long pos = 0; pos < len; pos += chunk.length) {
                int n = (int) Math.min(chunk.length, len - pos);
                for (int i = 0; i < n; i++) {
                    chunk[i] = pattern(pos + i);
                }
                call.output().write(chunk, 0, n);
            }
        }
    }

    private static long usedHeapAfterGc() {
        System.gc();
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    @Test
    void mixedCallsThroughAnImpairedPathNeverFailOrCorrupt() throws Exception {
        long seconds = Long.getLong("rx4j.soak.seconds", 0);
        assumeTrue(seconds > 0, "soak not requested (-Psoak or -Drx4j.soak.seconds=N)");
        Impairment impaired = Impairment.builder().delayMs(1).lossPercent(2).reorderPercent(2)
                .duplicatePercent(1).build();
        AtomicLong calls = new AtomicLong();
        AtomicLong failures = new AtomicLong();
        AtomicLong corrupt = new AtomicLong();
        AtomicLong bytes = new AtomicLong();
        try (RxEndpoint server = RxEndpoint.builder().bind(new InetSocketAddress("127.0.0.1", 0)).open();
             RxEndpoint client = RxEndpoint.builder().bind(new InetSocketAddress("127.0.0.1", 0)).open()) {
            server.registerService(RxService.builder(SVC).wholeStream(ImpairedSoakTest::serve).build());
            try (ImpairmentRelay relay = ImpairmentRelay.builder().listen(new InetSocketAddress("127.0.0.1", 0))
                    .target(server.localAddress()).both(impaired).seed(7).start()) {
                RxConnection conn = client.connect(relay.listenAddress(), SVC);
                long end = System.nanoTime() + seconds * 1_000_000_000L;
                long quarter = System.nanoTime() + seconds * 250_000_000L;
                long[] heap = new long[2];
                List<Thread> threads = new ArrayList<>();
                for (int t = 0; t < THREADS; t++) {
                    int id = t;
                    Thread th = new Thread(() -> {
                        Random r = new Random(id);
                        while (System.nanoTime() - end < 0) {
                            int mode = r.nextInt(3);
                            try {
                                if (mode == 0) {
                                    byte[] req = new byte[1 + r.nextInt(200)];
                                    r.nextBytes(req);
                                    req[0] = 0;
                                    byte[] rep = conn.call(req);
                                    if (!java.util.Arrays.equals(java.util.Arrays.copyOfRange(req, 1, req.length),
                                            rep)) {
                                        corrupt.incrementAndGet();
                                    }
                                    bytes.addAndGet(2L * req.length);
                                } else if (mode == 1) {
                                    int len = r.nextInt(1 << 20);
                                    byte[] req = new byte[1 + len];
                                    req[0] = 1;
                                    for (int i = 0; i < len; i++) {
                                        req[1 + i] = pattern(i);
                                    }
                                    ByteBuffer rep = ByteBuffer.wrap(conn.call(req));
                                    if (rep.getLong() != len || rep.getLong() != 0) {
                                        corrupt.incrementAndGet();
                                    }
                                    bytes.addAndGet(len);
                                } else {
                                    int len = r.nextInt(1 << 20);
                                    byte[] rep = conn.call(ByteBuffer.allocate(5).put((byte) 2).putInt(len).array());
                                    boolean ok = rep.length == len;
                                    for (int i = 0; ok && i < len; i++) {
                                        ok = rep[i] == pattern(i);
                                    }
                                    if (!ok) {
                                        corrupt.incrementAndGet();
                                    }
                                    bytes.addAndGet(len);
                                }
                                calls.incrementAndGet();
                            } catch (IOException | RuntimeException e) {
                                failures.incrementAndGet();
                                System.err.println("soak call failed: " + e);
                            }
                        }
                    });
                    th.start();
                    threads.add(th);
                }
                while (System.nanoTime() - quarter < 0) {
                    Thread.sleep(100);
                }
                heap[0] = usedHeapAfterGc();
                for (Thread th : threads) {
                    th.join();
                }
                heap[1] = usedHeapAfterGc();
                System.out.printf("soak: %d s, %d calls, %d MB payload, %d failed, %d corrupt; relay %s; heap after GC "
                        + "at 1/4 %d KiB, at end %d KiB%n", seconds, calls.get(), bytes.get() >> 20, failures.get(),
                        corrupt.get(), relay.stats(), heap[0] >> 10, heap[1] >> 10);
                conn.close();
            }
        }
        assertEquals(0, failures.get(), "failed calls");
        assertEquals(0, corrupt.get(), "corrupted replies");
    }
}
