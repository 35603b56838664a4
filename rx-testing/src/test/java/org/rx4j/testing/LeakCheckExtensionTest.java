// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;
import org.junit.platform.testkit.engine.Events;

/**
 * Proves that {@link LeakCheckExtension} fails a test that leaks and passes one that does not, by running
 * {@link LeakingCases} through JUnit's own engine.
 */
class LeakCheckExtensionTest {
    private static final String SELF_TEST = "rx4j.leakcheck.selftest";

    @Test
    void presenceDetectorIsInstalledByTheBuild() {
        assertTrue(LeakCheckExtension.presenceDetectorInstalled(),
                "surefire must pass -D" + LeakCheckExtension.DETECTOR_PROPERTY);
    }

    @Test
    void extensionFailsLeakingTestsAndPassesCleanOnes() {
        Events tests = EngineTestKit.engine("junit-jupiter")
                .selectors(selectClass(LeakingCases.class))
                .configurationParameter(SELF_TEST, "true")
                .execute()
                .testEvents();
        tests.assertStatistics(stats -> stats.started(4).succeeded(1).failed(3));
        List<Event> failed = tests.failed().list();
        for (Event e : failed) {
            Throwable t = e.getPayload(org.junit.platform.engine.TestExecutionResult.class).orElseThrow()
                    .getThrowable().orElseThrow();
            assertTrue(t instanceof AssertionError && t.getMessage().contains("leaked buffers"),
                    "unexpected failure: " + t);
        }
        assertEquals(List.of("leaksARetainedSlice()", "leaksAnUnpooledDirectBuffer()",
                        "leaksFromTheInjectedAllocator(CountingByteBufAllocator)"),
                failed.stream().map(e -> e.getTestDescriptor().getDisplayName()).sorted().toList());
    }

    @Test
    void assertNoLeaksSeesALeakAndThenACleanSlate() {
        LeakCheckExtension.resetLeakCount();
        ByteBuf leaked = PooledByteBufAllocator.DEFAULT.directBuffer(64);
        assertThrows(AssertionError.class, LeakCheckExtension::assertNoLeaks);
        leaked.release();
        LeakCheckExtension.resetLeakCount(); // the release after the report makes the count negative
        ByteBuf released = Unpooled.directBuffer(8);
        released.release();
        LeakCheckExtension.assertNoLeaks();
    }

    @Test
    void countingAllocatorReportsUnreleasedBuffers() {
        CountingByteBufAllocator alloc = new CountingByteBufAllocator();
        ByteBuf a = alloc.heapBuffer(4);
        ByteBuf b = alloc.ioBuffer(4);
        b.release();
        AssertionError e = assertThrows(AssertionError.class, alloc::assertAllReleased);
        assertTrue(e.getMessage().startsWith("1 of the buffers"), e.getMessage());
        a.release();
        alloc.assertAllReleased();
        assertEquals(2, alloc.totalAllocated());
    }

    /** Run only through {@link #extensionFailsLeakingTestsAndPassesCleanOnes}; never by surefire directly. */
    @EnabledIf("selfTestRequested")
    @ExtendWith(LeakCheckExtension.class)
    static class LeakingCases {
        static boolean selfTestRequested(ExtensionContext context) {
            return context.getConfigurationParameter(SELF_TEST).isPresent();
        }

        @Test
        void leaksAnUnpooledDirectBuffer() {
            // Netty tracks unpooled direct buffers; unpooled heap buffers are left to the GC and never counted.
            Unpooled.directBuffer(16).writeInt(1);
        }

        @Test
        void leaksARetainedSlice() {
            ByteBuf datagram = PooledByteBufAllocator.DEFAULT.heapBuffer(32).writeZero(32);
            datagram.retainedSlice(4, 8);
            datagram.release();
        }

        @Test
        void leaksFromTheInjectedAllocator(CountingByteBufAllocator alloc) {
            alloc.buffer(8);
        }

        @Test
        void releasesEverything(CountingByteBufAllocator alloc) {
            ByteBuf datagram = alloc.buffer(32).writeZero(32);
            ByteBuf slice = datagram.retainedSlice(4, 8);
            datagram.release();
            slice.release();
        }
    }
}
