package org.rx4j.perf;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;
import picocli.CommandLine.IVersionProvider;

/**
 * rxperf's {@code --version}: rx4j's version from {@code rx4j-version.properties}, a resource Maven fills in at
 * build time ({@code version=${project.version}}).
 */
public final class VersionProvider implements IVersionProvider {
    /** Resource holding {@code version=...}. */
    static final String RESOURCE = "/rx4j-version.properties";

    /**
     * The version lines picocli prints.
     *
     * @return one line, e.g. {@code rxperf (rx4j) 0.1.0-SNAPSHOT}
     */
    @Override
    public String[] getVersion() {
        return new String[] {"rxperf (rx4j) " + version()};
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
