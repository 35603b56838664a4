// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.transport;

import java.lang.invoke.MethodHandle;
import java.lang.reflect.Array;
import java.lang.reflect.Method;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Locale;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The time slice an event loop's thread asks Linux's fair scheduler for (sched_setattr(2): the thread's own policy and
 * nice value, {@code sched_runtime} set; the EEVDF scheduler honours it since Linux 6.12 and clamps it to 0.1..100 ms;
 * older kernels would ignore it, and report no slice of the thread's own, so none is asked there). A thread that asks
 * for a shorter slice gets an earlier virtual deadline whenever it becomes runnable, so a loop woken by a datagram on a
 * CPU where another thread is running (a peer's, on the same host) runs at once instead of after that thread's slice
 * (docs/transport.md "Scheduler slice").
 *
 * <p>Java 17 cannot make a system call; on JDK 22 or later this class calls libc's {@code syscall} through the Foreign
 * Function API, by reflection, and only when native access is enabled for its module ({@code
 * --enable-native-access}), so it never makes the JVM print its restricted-method warning. Elsewhere (an older JDK,
 * another system or CPU, a refused call) the thread keeps the kernel's slice and the reason is logged at debug level.
 *
 * <p>One instance per event loop group; {@link #applyToCurrentThread()} runs on the loop's thread as it starts.
 */
final class SchedulerSlice {
    private static final Logger log = LoggerFactory.getLogger(SchedulerSlice.class);
    /** struct sched_attr in its first version (SCHED_ATTR_SIZE_VER0), bytes. */
    private static final int ATTR_SIZE = 48;
    private static final int OFFSET_POLICY = 4;
    private static final int OFFSET_FLAGS = 8;
    private static final int OFFSET_RUNTIME = 24;
    /** SCHED_FLAG_RESET_ON_FORK: threads this one starts get the kernel's slice, not this one's. */
    private static final long RESET_ON_FORK = 0x01;
    private static final int SCHED_OTHER = 0;
    private static final int SCHED_BATCH = 3;

    private final long sliceNs;
    /** The slice the loop's thread runs with, ns, 0 for the kernel's; written by that thread as it starts. */
    private volatile long appliedNs;

    /**
     * @param sliceNs the slice, ns; 0 = leave the kernel's (the range is checked by the configuration,
     *     {@code SocketBuffers.schedulerSliceNs})
     */
    SchedulerSlice(long sliceNs) {
        this.sliceNs = sliceNs;
    }

    /** @return the slice the loop's thread runs with, ns: the one asked for once the kernel accepted it, else 0 */
    long appliedNs() {
        return appliedNs;
    }

    /**
     * Asks for the slice for the calling thread (a no-op when it is 0), with SCHED_FLAG_RESET_ON_FORK so that threads
     * it starts keep the kernel's slice. Never throws: a refusal, or a kernel that would accept the slice but ignore
     * it (before 6.12), leaves the kernel's slice.
     *
     * @return true when the thread runs with the slice (read back from the kernel)
     */
    boolean applyToCurrentThread() {
        if (sliceNs == 0) {
            return false;
        }
        boolean applied;
        try {
            applied = request(sliceNs);
        } catch (Throwable t) {
            // Whatever the call throws (an InternalError from a downcall included), the loop must still start.
            log.debug("rx4j: no scheduler slice for {}", Thread.currentThread().getName(), t);
            applied = false;
        }
        appliedNs = applied ? sliceNs : 0;
        return applied;
    }

    /** @return {sched_setattr, sched_getattr} on this system and CPU, or null where unknown */
    private static long[] syscallNumbers() {
        if (!System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("linux")) {
            return null;
        }
        return switch (System.getProperty("os.arch", "")) {
            case "amd64", "x86_64" -> new long[] {314, 315};
            case "aarch64" -> new long[] {274, 275};
            default -> null;
        };
    }

    private static boolean request(long sliceNs) throws Throwable {
        long[] nr = syscallNumbers();
        if (nr == null || Runtime.version().feature() < 22) {
            log.debug("rx4j: a scheduler slice needs Linux on x86_64 or aarch64 and JDK 22 or later");
            return false;
        }
        Module module = SchedulerSlice.class.getModule();
        if (!(Boolean) Module.class.getMethod("isNativeAccessEnabled").invoke(module)) {
            log.debug("rx4j: a scheduler slice needs --enable-native-access for {}", module);
            return false;
        }
        Class<?> linkerC = Class.forName("java.lang.foreign.Linker");
        Class<?> optionC = Class.forName("java.lang.foreign.Linker$Option");
        Class<?> lookupC = Class.forName("java.lang.foreign.SymbolLookup");
        Class<?> segmentC = Class.forName("java.lang.foreign.MemorySegment");
        Class<?> layoutC = Class.forName("java.lang.foreign.MemoryLayout");
        Class<?> valueLayoutC = Class.forName("java.lang.foreign.ValueLayout");
        Class<?> descriptorC = Class.forName("java.lang.foreign.FunctionDescriptor");
        Class<?> arenaC = Class.forName("java.lang.foreign.Arena");

        Object linker = linkerC.getMethod("nativeLinker").invoke(null);
        Object libc = linkerC.getMethod("defaultLookup").invoke(linker);
        Optional<?> syscall = (Optional<?>) lookupC.getMethod("find", String.class).invoke(libc, "syscall");
        if (syscall.isEmpty()) {
            log.debug("rx4j: no syscall symbol in the C library");
            return false;
        }
        // long syscall(long number, pid, struct sched_attr *, long, long): sched_getattr takes (pid, attr, size,
        // flags), sched_setattr (pid, attr, flags), which leaves the last argument unread.
        Object jLong = valueLayoutC.getField("JAVA_LONG").get(null);
        Object args = Array.newInstance(layoutC, 5);
        Array.set(args, 0, jLong);
        Array.set(args, 1, jLong);
        Array.set(args, 2, valueLayoutC.getField("ADDRESS").get(null));
        Array.set(args, 3, jLong);
        Array.set(args, 4, jLong);
        Object descriptor = descriptorC.getMethod("of", layoutC, args.getClass()).invoke(null, jLong, args);
        // syscall(2) is variadic after the number: its arguments are passed as C passes variadic ones.
        Object options = Array.newInstance(optionC, 1);
        Array.set(options, 0, optionC.getMethod("firstVariadicArg", int.class).invoke(null, 1));
        Method downcall = linkerC.getMethod("downcallHandle", segmentC, descriptorC, options.getClass());
        MethodHandle call = (MethodHandle) downcall.invoke(linker, syscall.get(), descriptor, options);

        try (AutoCloseable arena = (AutoCloseable) arenaC.getMethod("ofConfined").invoke(null)) {
            Object attr = arenaC.getMethod("allocate", long.class, long.class).invoke(arena, (long) ATTR_SIZE, 8L);
            ByteBuffer bytes = ((ByteBuffer) segmentC.getMethod("asByteBuffer").invoke(attr))
                    .order(ByteOrder.nativeOrder());
            // pid 0 = the calling thread. Read first, so that its policy and nice value are written back unchanged.
            long got = (long) call.invokeWithArguments(nr[1], 0L, attr, (long) ATTR_SIZE, 0L);
            int policy = bytes.getInt(OFFSET_POLICY);
            // A kernel that keeps per-thread slices (6.12 or later) reports the current one; an older one reports 0,
            // and would accept a slice it then ignores.
            if (got != 0 || (policy != SCHED_OTHER && policy != SCHED_BATCH) || bytes.getLong(OFFSET_RUNTIME) <= 0) {
                log.debug("rx4j: scheduler slice left alone (sched_getattr returned {}, policy {}, slice {} ns)", got,
                        policy, bytes.getLong(OFFSET_RUNTIME));
                return false;
            }
            bytes.putInt(0, ATTR_SIZE);
            // Threads the loop starts (an executor's workers, created on demand from the loop) would otherwise
            // inherit the short slice.
            bytes.putLong(OFFSET_FLAGS, bytes.getLong(OFFSET_FLAGS) | RESET_ON_FORK);
            bytes.putLong(OFFSET_RUNTIME, sliceNs);
            long set = (long) call.invokeWithArguments(nr[0], 0L, attr, 0L, 0L);
            long reread = (long) call.invokeWithArguments(nr[1], 0L, attr, (long) ATTR_SIZE, 0L);
            if (set != 0 || reread != 0 || bytes.getLong(OFFSET_RUNTIME) != sliceNs) {
                log.debug("rx4j: sched_setattr did not give a {} ns slice (returned {}, slice now {} ns)", sliceNs, set,
                        bytes.getLong(OFFSET_RUNTIME));
                return false;
            }
            return true;
        }
    }
}
