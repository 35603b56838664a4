// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The event loop's scheduler slice (docs/transport.md "Scheduler slice"): asked for only when configured, applied only
 * where the JVM may call the kernel (JDK 22 or later with native access), and then the loop's thread alone runs with it.
 * On JDK 22 or later the probes run in a JVM of their own, whose native access this test decides.
 * The slice the kernel applies is read back from /proc/thread-self/sched ({@code se.slice}, ns).
 */
class SchedulerSliceTest {
    private static final long SLICE_NS = 250_000;

    /** @return the calling thread's scheduler slice, ns, or -1 where the kernel does not show it */
    static long threadSliceNs() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/thread-self/sched"))) {
                if (line.startsWith("se.slice")) {
                    return Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
                }
            }
        } catch (IOException | RuntimeException e) {
            return -1;
        }
        return -1;
    }

    /** @return true on Linux 6.12 or later, which honours a fair thread's own slice (EEVDF) */
    private static boolean kernelHonoursSlices() {
        Matcher m = Pattern.compile("^(\\d+)\\.(\\d+)").matcher(System.getProperty("os.version", ""));
        if (!System.getProperty("os.name", "").startsWith("Linux") || !m.find()) {
            return false;
        }
        int major = Integer.parseInt(m.group(1));
        int minor = Integer.parseInt(m.group(2));
        return (major > 6 || major == 6 && minor >= 12) && threadSliceNs() > 0;
    }

    @Test
    void zeroAsksForNothing() {
        SchedulerSlice none = new SchedulerSlice(0);
        assertFalse(none.applyToCurrentThread());
        assertEquals(0, none.appliedNs());
    }

    @Test
    @Timeout(30)
    void beforeJdk22TheThreadKeepsTheKernelsSlice() throws Exception {
        assumeTrue(Runtime.version().feature() < 22, "JDK 22 or later: see the probes in a JVM of their own below");
        SchedulerSlice slice = new SchedulerSlice(SLICE_NS);
        long[] seen = new long[3];
        CompletableFuture<Void> done = CompletableFuture.runAsync(() -> {
            seen[0] = threadSliceNs();
            seen[1] = slice.applyToCurrentThread() ? 1 : 0;
            seen[2] = threadSliceNs();
        }, r -> new Thread(r, "slice-test").start());
        done.get(20, TimeUnit.SECONDS);
        assertEquals(0, seen[1], "applyToCurrentThread");
        assertEquals(0, slice.appliedNs());
        assertEquals(seen[0], seen[2], "the thread's slice, ns");
    }

    /**
     * Runs {@link SchedulerSliceProbe} in a JVM of its own (this one's {@code java}, so JDK 22 or later), with or
     * without native access, which this test JVM's agents may have enabled for themselves.
     *
     * @return the probe's figures: schedulerSliceNs(), the loop thread's slice, the main thread's slice, the slice of
     *     a thread the loop started (ns; -1 where the kernel does not show them)
     */
    private static long[] probe(boolean nativeAccess) throws Exception {
        String javaCommand = ProcessHandle.current().info().command().orElseThrow();
        List<String> command = new ArrayList<>(List.of(javaCommand));
        if (nativeAccess) {
            command.add("--enable-native-access=ALL-UNNAMED");
        }
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), SchedulerSliceProbe.class.getName(),
                Long.toString(SLICE_NS)));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        assertEquals(0, p.waitFor(), out);
        assertFalse(out.contains("restricted method"), "the JVM warned about native access: " + out);
        String[] last = out.lines().reduce((a, b) -> b).orElse("").split(" ");
        assertEquals(4, last.length, out);
        return Arrays.stream(last).mapToLong(Long::parseLong).toArray();
    }

    @Test
    @Timeout(120)
    void withoutNativeAccessTheLoopKeepsTheKernelsSlice() throws Exception {
        assumeTrue(Runtime.version().feature() >= 22, "the Foreign Function API needs JDK 22 or later");
        long[] seen = probe(false);
        assertEquals(0, seen[0], "schedulerSliceNs()");
        assertEquals(seen[2], seen[1], "the loop thread's slice, ns, is the main thread's");
    }

    @Test
    @Timeout(120)
    void aTransportsLoopRunsWithTheSliceItAskedForWhenTheJvmHasNativeAccess() throws Exception {
        assumeTrue(Runtime.version().feature() >= 22, "the Foreign Function API needs JDK 22 or later");
        assumeTrue(kernelHonoursSlices(), "needs Linux 6.12 or later with /proc/thread-self/sched");
        long[] seen = probe(true);
        assertEquals(SLICE_NS, seen[0], "schedulerSliceNs()");
        assertEquals(SLICE_NS, seen[1], "the loop thread's slice, ns");
        assertNotEquals(SLICE_NS, seen[2], "the main thread's slice, ns");
        assertEquals(seen[2], seen[3], "a thread the loop started has the kernel's slice, as the main thread");
    }
}
