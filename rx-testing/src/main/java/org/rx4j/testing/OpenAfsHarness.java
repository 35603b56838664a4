// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Builds one of rx4j's C test harnesses (a test resource) with gcc against Debian's OpenAFS libraries
 * (libopenafs-dev's libafsrpc.a and libopr.a, with Heimdal's libhcrypto and libroken), for the tests that compare
 * rx4j with the real thing. A test calling {@link #build} is skipped, with the reason, where gcc or the libraries are
 * missing.
 */
public final class OpenAfsHarness {
    private static final String[] LIB_DIRS = {"/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu",
        "/usr/lib64", "/usr/lib"};

    private OpenAfsHarness() {
    }

    /**
     * Copies the C source {@code resource} (next to {@code owner}) into {@code dir} and compiles it there.
     *
     * @param dir a scratch directory (gcc's output goes to out.txt there)
     * @param owner the class whose package holds the resource
     * @param resource the C file's name, e.g. {@code "rxkad_peer.c"}
     * @return the binary
     * @throws org.opentest4j.TestAbortedException when gcc or the libraries are missing (the test is skipped)
     */
    public static Path build(Path dir, Class<?> owner, String resource) throws IOException, InterruptedException {
        assumeTrue(run(dir, "gcc", "--version") == 0, "gcc is not installed: the live comparison is skipped");
        Path rpc = Path.of("/usr/lib/libafsrpc.a");
        Path opr = Path.of("/usr/lib/libopr.a");
        assumeTrue(Files.isReadable(rpc) && Files.isReadable(opr) && Files.isReadable(Path.of(
                "/usr/include/rx/rxkad.h")), "libopenafs-dev (libafsrpc.a, libopr.a, rx/rxkad.h) is not installed");
        Path hcrypto = sharedLibrary("libhcrypto.so");
        Path roken = sharedLibrary("libroken.so");
        assumeTrue(hcrypto != null && roken != null, "Heimdal's libhcrypto/libroken (libafsrpc's dependencies) "
                + "are not installed");
        Path source = dir.resolve(resource);
        try (InputStream in = owner.getResourceAsStream(resource)) {
            assertNotNull(in, resource + " test resource");
            Files.copy(in, source);
        }
        Path binary = dir.resolve(resource.replace(".c", ""));
        int rc = run(dir, "gcc", "-O1", "-o", binary.toString(), source.toString(), rpc.toString(), opr.toString(),
                hcrypto.toString(), roken.toString(), "-lpthread");
        assertEquals(0, rc, "gcc failed: " + Files.readString(dir.resolve("out.txt")));
        return binary;
    }

    private static Path sharedLibrary(String prefix) throws IOException {
        for (String d : LIB_DIRS) {
            Path p = Path.of(d);
            if (!Files.isDirectory(p)) {
                continue;
            }
            try (var files = Files.list(p)) {
                List<Path> found = files.filter(f -> f.getFileName().toString().startsWith(prefix))
                        .sorted().toList();
                if (!found.isEmpty()) {
                    return found.get(0);
                }
            }
        }
        return null;
    }

    /** Runs a command in {@code cwd} with output to out.txt; returns its exit code, or -1 if it cannot start. */
    private static int run(Path cwd, String... command) throws InterruptedException {
        try {
            Process p = new ProcessBuilder(command).directory(cwd.toFile()).redirectErrorStream(true)
                    .redirectOutput(cwd.resolve("out.txt").toFile()).start();
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return -1;
            }
            return p.exitValue();
        } catch (IOException e) {
            return -1;
        }
    }
}
