// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.metrics.micrometer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * docs/embedding.md, "Metrics", includes {@link MetricsExample} verbatim: the Java block after the doc's include
 * marker must equal the source between the file's {@code metrics-example:begin/end} markers, so the documented
 * example is the one {@link MetricsExampleTest} runs; the same for the {@link RxCallTimers} example that
 * {@link RxCallTimersTest} runs.
 */
class MetricsDocTest {
    static final String SOURCE =
            "rx-metrics-micrometer/src/test/java/org/rx4j/metrics/micrometer/MetricsExample.java";

    private static Path repoRoot() {
        Path p = Path.of("").toAbsolutePath();
        while (p != null && !Files.isRegularFile(p.resolve("docs/embedding.md"))) {
            p = p.getParent();
        }
        assertTrue(p != null, "docs/embedding.md not found above " + Path.of("").toAbsolutePath());
        return p;
    }

    private static String between(String text, String begin, String end, String what) {
        int b = text.indexOf(begin);
        int e = text.indexOf(end, b + 1);
        assertTrue(b >= 0 && e > b, what + ": markers " + begin + " ... " + end + " not found in order");
        return text.substring(text.indexOf('\n', b) + 1, e);
    }

    /** @return the lines with the smallest common indentation removed */
    private static String dedent(String block) {
        int indent = Integer.MAX_VALUE;
        for (String line : block.split("\n")) {
            if (!line.isBlank()) {
                indent = Math.min(indent, line.length() - line.stripLeading().length());
            }
        }
        StringBuilder out = new StringBuilder();
        for (String line : block.split("\n")) {
            out.append(line.isBlank() ? "" : line.substring(indent)).append('\n');
        }
        return out.toString();
    }

    /** The timers example, in {@link RxCallTimersTest}'s set-up. */
    static final String TIMERS_SOURCE =
            "rx-metrics-micrometer/src/test/java/org/rx4j/metrics/micrometer/RxCallTimersTest.java";

    private static void assertIncluded(String sourcePath, String marker) throws IOException {
        Path root = repoRoot();
        String source = Files.readString(root.resolve(sourcePath));
        String example = dedent(between(source, "// " + marker + ":begin", "        // " + marker + ":end",
                sourcePath));
        String doc = Files.readString(root.resolve("docs/embedding.md"));
        String block = between(doc, "<!-- include: " + sourcePath + " -->", "<!-- end include -->",
                "docs/embedding.md");
        assertTrue(block.startsWith("```java\n") && block.endsWith("```\n"), "the included block is one java fence");
        assertEquals(example, block.substring("```java\n".length(), block.length() - "```\n".length()),
                "docs/embedding.md no longer matches " + sourcePath + ": copy the region between the markers");
    }

    @Test
    void docIncludesTheExampleSourceVerbatim() throws IOException {
        assertIncluded(SOURCE, "metrics-example");
    }

    @Test
    void docIncludesTheTimersExampleVerbatim() throws IOException {
        assertIncluded(TIMERS_SOURCE, "timers-example");
    }
}
