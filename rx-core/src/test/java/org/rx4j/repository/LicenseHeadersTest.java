// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.repository;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * Every source file of the checkout carries the license header (docs/releasing.md "License headers"): the build's
 * check, which runs {@code scripts/license-headers.sh} over the whole repository and fails with its list of files
 * that lack the header ({@code scripts/license-headers.sh --add} adds it).
 */
class LicenseHeadersTest {
    @Test
    void everySourceFileCarriesTheLicenseHeader() throws Exception {
        Path root = Path.of("").toAbsolutePath();
        while (root != null && !Files.isRegularFile(root.resolve("scripts/license-headers.sh"))) {
            root = root.getParent();
        }
        assertTrue(root != null, "scripts/license-headers.sh not found above " + Path.of("").toAbsolutePath());
        Process p = new ProcessBuilder("bash", "scripts/license-headers.sh").directory(root.toFile())
                .redirectErrorStream(true).start();
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.waitFor(), out);
    }
}
