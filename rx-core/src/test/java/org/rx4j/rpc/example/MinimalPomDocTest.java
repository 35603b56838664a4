// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc.example;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * docs/embedding.md "A minimal project": the pom to copy depends on rx-core at this build's version and on
 * slf4j-simple and maven-compiler-plugin at the versions the build uses, and sets {@code maven.compiler.release} to
 * 17 (without it Maven 3.8's default compiler plugin fails on Java 5/7 source levels). Read as text: the test module
 * does not read java.xml.
 */
class MinimalPomDocTest {
    /** @return the text of the first {@code <version>} after {@code <artifactId>artifact</artifactId>} */
    private static String versionOf(String pom, String artifact) {
        Matcher m = Pattern.compile("<artifactId>" + Pattern.quote(artifact)
                + "</artifactId>\\s*<version>([^<]+)</version>").matcher(pom);
        assertTrue(m.find(), artifact + " with a version");
        return m.group(1);
    }

    private static String property(String pom, String name) {
        Matcher m = Pattern.compile("<" + Pattern.quote(name) + ">([^<]+)</" + Pattern.quote(name) + ">").matcher(pom);
        assertTrue(m.find(), "property " + name);
        return m.group(1);
    }

    @Test
    void thePomToCopyMatchesThisBuild() throws Exception {
        Path root = EmbeddingDocTest.repoRoot();
        String doc = Files.readString(root.resolve("docs/embedding.md"));
        String section = EmbeddingDocTest.between(doc, "### A minimal project", "### Dependencies", "docs/embedding.md");
        String pom = EmbeddingDocTest.between(section, "```xml", "```", "the minimal project's xml block");
        String parent = Files.readString(root.resolve("pom.xml"));
        String version = versionOf(parent, "rx4j-parent");
        assertEquals(version, versionOf(pom, "rx-core"));
        assertTrue(pom.contains("<groupId>org.rx4j</groupId>\n      <artifactId>rx-core</artifactId>"), pom);
        assertEquals(property(parent, "slf4j.version"), versionOf(pom, "slf4j-simple"));
        assertEquals(versionOf(parent, "maven-compiler-plugin"), versionOf(pom, "maven-compiler-plugin"));
        assertEquals("17", property(pom, "maven.compiler.release"));
        assertEquals(version, versionOf(doc, "rx-core"), "the coordinates at the top of the page");
    }
}
