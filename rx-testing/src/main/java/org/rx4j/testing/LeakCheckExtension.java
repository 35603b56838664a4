// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.testing;

import io.netty.buffer.ByteBufAllocator;
import io.netty.util.LeakPresenceDetector;
import io.netty.util.ResourceLeakDetector;
import io.netty.util.ResourceLeakDetectorFactory;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * JUnit 5 extension that fails every test that leaks a Netty {@code ByteBuf}. Use it with
 * {@code @ExtendWith(LeakCheckExtension.class)}; every module gets it from the rx-testing module
 * (test scope).
 *
 * <p>Two checks run after each test, and the test fails with an {@link AssertionError} if either finds a
 * buffer still referenced:
 * <ol>
 *   <li>Netty's {@link LeakPresenceDetector} (Netty 4.2) counts every buffer any allocator hands out and
 *       every release, with no sampling and no waiting for GC. It must be Netty's leak detector from the
 *       start of the JVM: the parent pom passes {@code -Dio.netty.customResourceLeakDetector=
 *       io.netty.util.LeakPresenceDetector} to surefire (this class also sets that property if it loads before
 *       Netty does). The count is JVM-wide, so tests using this extension must not run in parallel.</li>
 *   <li>Every {@link CountingByteBufAllocator} injected as a test-method parameter must have all its
 *       buffers at {@code refCnt() == 0}.</li>
 * </ol>
 * The extension also raises Netty's detection level to PARANOID for the test class (every buffer gets a
 * leak-aware wrapper) and restores the previous level afterwards. That is too slow for fuzz loops of
 * millions of datagrams: those use a {@link CountingByteBufAllocator} directly instead.
 */
public final class LeakCheckExtension implements BeforeAllCallback, AfterAllCallback, BeforeEachCallback,
        AfterEachCallback, ParameterResolver {
    /** The Netty system property that selects the leak detector class. */
    public static final String DETECTOR_PROPERTY = "io.netty.customResourceLeakDetector";
    private static final String PRESENCE_DETECTOR = "io.netty.util.LeakPresenceDetector";
    private static final ExtensionContext.Namespace NS = ExtensionContext.Namespace.create(LeakCheckExtension.class);
    private static final String LEVEL = "level";
    private static final String ALLOCATORS = "allocators";

    static {
        // Effective only if Netty's ResourceLeakDetectorFactory is not initialised yet; beforeAll verifies.
        if (System.getProperty(DETECTOR_PROPERTY) == null) {
            System.setProperty(DETECTOR_PROPERTY, PRESENCE_DETECTOR);
        }
    }

    /** @return true when Netty counts buffers with the {@link LeakPresenceDetector} in this JVM */
    public static boolean presenceDetectorInstalled() {
        return ResourceLeakDetectorFactory.instance().newResourceLeakDetector(Object.class)
                instanceof LeakPresenceDetector;
    }

    /**
     * Asserts that no buffer allocated since the last check or reset is still referenced, and starts a new
     * count. Usable inside a test to check one step.
     *
     * @throws AssertionError if a buffer is still referenced (or one counted as leaked was released later)
     * @throws IllegalStateException if the presence detector is not installed
     */
    public static void assertNoLeaks() {
        try {
            LeakPresenceDetector.check();
        } catch (LeakPresenceDetector.AllocationProhibitedException e) {
            throw e;
        } catch (IllegalStateException e) {
            if (!presenceDetectorInstalled()) {
                throw e;
            }
            throw new AssertionError("ByteBuf leak: " + e.getMessage(), e);
        }
    }

    /** Starts a new count, forgetting buffers allocated (and leaks made) before this call. */
    public static void resetLeakCount() {
        try {
            LeakPresenceDetector.check();
        } catch (IllegalStateException ignored) {
            // Earlier leaks belong to whoever made them; this test starts from zero.
        }
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        if (!presenceDetectorInstalled()) {
            throw new ExtensionConfigurationException("LeakCheckExtension needs Netty's leak presence detector: run"
                    + " the test JVM with -D" + DETECTOR_PROPERTY + "=" + PRESENCE_DETECTOR
                    + " (the parent pom's rx4j.test.argLine does)");
        }
        context.getStore(NS).put(LEVEL, ResourceLeakDetector.getLevel());
        ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.PARANOID);
    }

    @Override
    public void afterAll(ExtensionContext context) {
        ResourceLeakDetector.Level previous = context.getStore(NS).get(LEVEL, ResourceLeakDetector.Level.class);
        if (previous != null) {
            ResourceLeakDetector.setLevel(previous);
        }
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        resetLeakCount();
    }

    @Override
    public void afterEach(ExtensionContext context) {
        List<String> problems = new ArrayList<>();
        for (CountingByteBufAllocator alloc : allocators(context)) {
            try {
                alloc.assertAllReleased();
            } catch (AssertionError e) {
                problems.add(e.getMessage());
            }
        }
        try {
            assertNoLeaks();
        } catch (AssertionError e) {
            problems.add(e.getMessage());
        }
        if (!problems.isEmpty()) {
            throw new AssertionError(context.getDisplayName() + " leaked buffers: " + String.join("; ", problems));
        }
    }

    @SuppressWarnings("unchecked")
    private static List<CountingByteBufAllocator> allocators(ExtensionContext context) {
        return context.getStore(NS).getOrComputeIfAbsent(ALLOCATORS, k -> new ArrayList<CountingByteBufAllocator>(),
                List.class);
    }

    @Override
    public boolean supportsParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
        return parameterContext.getParameter().getType() == CountingByteBufAllocator.class;
    }

    /** Injects a {@link CountingByteBufAllocator} over Netty's default allocator, checked after the test. */
    @Override
    public Object resolveParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
        CountingByteBufAllocator alloc = new CountingByteBufAllocator(ByteBufAllocator.DEFAULT);
        allocators(extensionContext).add(alloc);
        return alloc;
    }
}
