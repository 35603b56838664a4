// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code rxperf --version}: one line naming rx4j's version, the Java runtime, the JVM flags that ran and whether a
 * start-up cache was used.
 */
class VersionProviderTest {
    private static final String JAVA = "Java " + System.getProperty("java.version") + " ("
            + System.getProperty("java.home") + ")";

    @Test
    void oneLineNamingVersionAndRuntime() {
        String[] lines = new VersionProvider().getVersion();
        assertEquals(1, lines.length);
        assertTrue(lines[0].startsWith("rxperf (rx4j) "), lines[0]);
        assertTrue(lines[0].contains("; " + JAVA + "; JVM flags: "), lines[0]);
    }

    @Test
    void namesTheFlagsWithoutTheLauncherMarkerAndTheAotCacheInUse() {
        String s = VersionProvider.runtime(List.of("-XX:MaxNewSize=32m", "-XX:AOTCache=/c/x.aot", "-Xlog:aot=off",
                "-Drxperf.launcher=scripts/rxperf"), "mixed mode, sharing", "scripts/rxperf");
        assertEquals(JAVA + "; JVM flags (scripts/rxperf): -XX:MaxNewSize=32m -XX:AOTCache=/c/x.aot -Xlog:aot=off; "
                + "start-up cache: AOT cache /c/x.aot, used", s);
    }

    @Test
    void anArchiveTheJvmDidNotMapIsReportedAsNotUsed() {
        String s = VersionProvider.runtime(List.of("-XX:SharedArchiveFile=/c/x.jsa"), "mixed mode", null);
        assertEquals(JAVA + "; JVM flags: -XX:SharedArchiveFile=/c/x.jsa; "
                + "start-up cache: AppCDS archive /c/x.jsa, not used (the JVM could not map it)", s);
    }

    @Test
    void noFlagsAndNoCacheOfOurOwn() {
        assertEquals(JAVA + "; JVM flags: none; start-up cache: none (the JDK's own CDS archive only)",
                VersionProvider.runtime(List.of(), "mixed mode, sharing", null));
        assertEquals(JAVA + "; JVM flags: none; start-up cache: none",
                VersionProvider.runtime(List.of(), "interpreted mode", null));
    }
}
