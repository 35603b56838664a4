// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc.example;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * docs/embedding.md includes {@link EmbeddingExample} verbatim: the Java block between the doc's include
 * markers must equal the source between the file's {@code embedding-example:begin/end} markers, so the
 * documented example is the one that compiles and runs ({@link EmbeddingExampleTest}).
 */
class EmbeddingDocTest {
    static final String SOURCE = "rx-core/src/test/java/org/rx4j/rpc/example/EmbeddingExample.java";
    static final String DOC_END = "<!-- end include -->";

    /** @return the repository root: the nearest directory up from the working directory that has docs/ */
    static Path repoRoot() {
        Path p = Path.of("").toAbsolutePath();
        while (p != null && !Files.isRegularFile(p.resolve("docs/embedding.md"))) {
            p = p.getParent();
        }
        assertTrue(p != null, "docs/embedding.md not found above " + Path.of("").toAbsolutePath());
        return p;
    }

    static String between(String text, String begin, String end, String what) {
        int b = text.indexOf(begin);
        int e = text.indexOf(end, b + 1);
        assertTrue(b >= 0 && e > b, what + ": markers " + begin + " ... " + end + " not found in order");
        return text.substring(text.indexOf('\n', b) + 1, e);
    }

    /**
     * Asserts that docs/embedding.md's java block after {@code <!-- include: SOURCE -->} equals the source between
     * the file's {@code // REGION:begin} and {@code // REGION:end} markers.
     *
     * @param source the example's path from the repository root
     * @param region the marker name, e.g. {@code pool-example}
     * @throws IOException if a file cannot be read
     */
    static void assertIncludedVerbatim(String source, String region) throws IOException {
        Path root = repoRoot();
        String example = between(Files.readString(root.resolve(source)), "// " + region + ":begin",
                "// " + region + ":end", source);
        String doc = Files.readString(root.resolve("docs/embedding.md"));
        String block = between(doc, "<!-- include: " + source + " -->", DOC_END, "docs/embedding.md");
        assertTrue(block.startsWith("```java\n") && block.endsWith("```\n"),
                "the included block is one java code fence");
        String included = block.substring("```java\n".length(), block.length() - "```\n".length());
        assertEquals(example, included, "docs/embedding.md no longer matches " + source
                + ": copy the region between the markers into the doc");
    }

    @Test
    void docIncludesTheExampleSourceVerbatim() throws IOException {
        assertIncludedVerbatim(SOURCE, "embedding-example");
    }

    @Test
    void docLinksTheErrorCatalog() throws IOException {
        Path root = repoRoot();
        String doc = Files.readString(root.resolve("docs/embedding.md"));
        assertTrue(doc.contains("(errors.md)"), "links docs/errors.md");
        assertTrue(Files.isRegularFile(root.resolve("docs/errors.md")));
    }
}
