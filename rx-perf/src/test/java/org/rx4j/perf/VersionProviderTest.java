package org.rx4j.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** {@code rxperf --version}: one line naming rx4j's version, the Java runtime and the launcher's JVM flags. */
class VersionProviderTest {
    @AfterEach
    void clearLauncherProperty() {
        System.clearProperty(VersionProvider.LAUNCHER_PROPERTY);
    }

    @Test
    void namesTheRuntimeAndNoLauncherFlagsWhenStartedWithoutTheLauncher() {
        System.clearProperty(VersionProvider.LAUNCHER_PROPERTY);
        String[] lines = new VersionProvider().getVersion();
        assertEquals(1, lines.length);
        assertTrue(lines[0].startsWith("rxperf (rx4j) "), lines[0]);
        assertTrue(lines[0].contains("; Java " + System.getProperty("java.version") + " ("
                + System.getProperty("java.home") + ")"), lines[0]);
        assertFalse(lines[0].contains("launcher flags"), lines[0]);
    }

    @Test
    void namesTheFlagsTheLauncherChose() {
        System.setProperty(VersionProvider.LAUNCHER_PROPERTY, "-XX:TieredStopAtLevel=1 ");
        assertTrue(VersionProvider.runtime().endsWith("; launcher flags: -XX:TieredStopAtLevel=1"),
                VersionProvider.runtime());
        System.setProperty(VersionProvider.LAUNCHER_PROPERTY, "");
        assertTrue(VersionProvider.runtime().endsWith("; launcher flags: none"), VersionProvider.runtime());
    }
}
