package org.rx4j.perf;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;
import picocli.CommandLine.IVersionProvider;

/**
 * rxperf's {@code --version}: rx4j's version from {@code rx4j-version.properties}, a resource Maven fills in at
 * build time ({@code version=${project.version}}), then the Java runtime it runs on and the JVM flags
 * {@code scripts/rxperf} chose (its {@code rxperf.launcher} system property), on one line so that scripts
 * (bench.sh's machine line) can keep it whole.
 */
public final class VersionProvider implements IVersionProvider {
    /** Resource holding {@code version=...}. */
    static final String RESOURCE = "/rx4j-version.properties";

    /** System property the launcher sets to the JVM flags it chose (e.g. {@code -XX:TieredStopAtLevel=1}). */
    static final String LAUNCHER_PROPERTY = "rxperf.launcher";

    /**
     * The version lines picocli prints.
     *
     * @return one line, e.g. {@code rxperf (rx4j) 0.1.0-SNAPSHOT; Java 17.0.15 (/usr/lib/jvm/java-17-openjdk-amd64);
     *     launcher flags: -XX:TieredStopAtLevel=1}
     */
    @Override
    public String[] getVersion() {
        return new String[] {"rxperf (rx4j) " + version() + "; " + runtime()};
    }

    /**
     * @return "Java VERSION (JAVA_HOME)" and, when started by scripts/rxperf, "; launcher flags: ..." as the launcher
     *     passed them ("none" when it chose none)
     */
    static String runtime() {
        String s = "Java " + System.getProperty("java.version") + " (" + System.getProperty("java.home") + ")";
        String flags = System.getProperty(LAUNCHER_PROPERTY);
        if (flags != null) {
            s += "; launcher flags: " + (flags.isBlank() ? "none" : flags.strip());
        }
        return s;
    }

    /**
     * rx4j's version.
     *
     * @return the version, or {@code unknown} if the resource is missing (running from unfiltered classes)
     * @throws UncheckedIOException if the resource exists but cannot be read
     */
    public static String version() {
        try (InputStream in = VersionProvider.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                return "unknown";
            }
            Properties properties = new Properties();
            properties.load(in);
            return properties.getProperty("version", "unknown");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
