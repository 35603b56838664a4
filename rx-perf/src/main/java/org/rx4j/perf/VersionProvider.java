// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.perf;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import picocli.CommandLine.IVersionProvider;

/**
 * rxperf's {@code --version}: rx4j's version from {@code rx4j-version.properties}, a resource Maven fills in at
 * build time ({@code version=${project.version}}), then the Java runtime it runs on (version and home), the JVM flags
 * that ran (the runtime's input arguments) and whether a start-up cache (JDK 25's AOT cache or an AppCDS archive) was
 * used, on one line so that scripts (bench.sh's machine line) can keep it whole. docs/rxperf.md, "The launcher".
 */
public final class VersionProvider implements IVersionProvider {
    /** Resource holding {@code version=...}. */
    static final String RESOURCE = "/rx4j-version.properties";

    /**
     * System property scripts/rxperf sets (to its own name): the flags were the launcher's choice. It is left out of
     * the flags printed.
     */
    static final String LAUNCHER_PROPERTY = "rxperf.launcher";

    /**
     * The version lines picocli prints.
     *
     * @return one line, e.g. {@code rxperf (rx4j) 0.1.0-SNAPSHOT; Java 25.0.3 (/usr/lib/jvm/temurin-25-jdk-amd64);
     *     JVM flags (scripts/rxperf): -XX:MaxNewSize=32m -XX:AOTCache=/x.aot; start-up cache: AOT cache /x.aot, used}
     */
    @Override
    public String[] getVersion() {
        return new String[] {"rxperf (rx4j) " + version() + "; " + runtime(
                ManagementFactory.getRuntimeMXBean().getInputArguments(), System.getProperty("java.vm.info", ""),
                System.getProperty(LAUNCHER_PROPERTY))};
    }

    /**
     * The runtime part of the version line.
     *
     * @param inputArguments the JVM's input arguments (RuntimeMXBean), in order
     * @param vmInfo the {@code java.vm.info} property: HotSpot says {@code sharing} in it while classes come from a
     *     CDS or AOT archive; a requested archive the JVM cannot map turns sharing off altogether (JDK 17 and 25)
     * @param launcher the {@link #LAUNCHER_PROPERTY} value, null when not started by scripts/rxperf
     * @return "Java VERSION (HOME); JVM flags: ...; start-up cache: ..."
     */
    static String runtime(List<String> inputArguments, String vmInfo, String launcher) {
        List<String> flags = new ArrayList<>();
        String cache = null;
        for (String a : inputArguments) {
            if (a.startsWith("-D" + LAUNCHER_PROPERTY + "=")) {
                continue;
            }
            flags.add(a);
            if (a.startsWith("-XX:AOTCache=")) {
                cache = "AOT cache " + a.substring("-XX:AOTCache=".length());
            } else if (a.startsWith("-XX:SharedArchiveFile=")) {
                cache = "AppCDS archive " + a.substring("-XX:SharedArchiveFile=".length());
            }
        }
        boolean sharing = vmInfo.contains("sharing");
        String cacheText = cache == null ? "none" + (sharing ? " (the JDK's own CDS archive only)" : "")
                : cache + (sharing ? ", used" : ", not used (the JVM could not map it)");
        return "Java " + System.getProperty("java.version") + " (" + System.getProperty("java.home") + "); JVM flags"
                + (launcher == null ? "" : " (scripts/rxperf)") + ": "
                + (flags.isEmpty() ? "none" : String.join(" ", flags)) + "; start-up cache: " + cacheText;
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
