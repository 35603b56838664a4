// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc.example;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.rx4j.testing.LeakCheckExtension;

/**
 * Runs docs/embedding.md's "Interceptors" and "Cancellation" examples ({@link ProductionExample}) over loopback and
 * checks what they print, and that the doc still shows their source verbatim.
 */
@Timeout(60)
@ExtendWith(LeakCheckExtension.class)
class ProductionExampleTest {
    @Test
    void interceptorsAndCancellationWorkAsDocumented() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
            ProductionExample.run(out);
        }
        List<String> lines = bytes.toString(StandardCharsets.UTF_8).lines().toList();
        // the server's call-end lines run on its event loop: each is checked for presence, the rest in order
        assertTrue(lines.contains("Read from anonymous: code 0"), lines.toString());
        assertTrue(lines.contains("Slow from anonymous: code -6"), lines.toString());
        assertEquals(List.of("read: 42", "delete: abort 1", "slow stopped: cancelled=true code=-6",
                        "client calls: {Delete=1, Read=1, Slow=1}"),
                lines.stream().filter(l -> !l.contains(" from ")).toList());
    }

    @Test
    void docShowsBothRegionsVerbatim() throws Exception {
        java.nio.file.Path root = EmbeddingDocTest.repoRoot();
        String source = java.nio.file.Files.readString(root.resolve(SOURCE));
        String doc = java.nio.file.Files.readString(root.resolve("docs/embedding.md"));
        for (String region : List.of("interceptors", "cancellation")) {
            String code = EmbeddingDocTest.between(source, "// " + region + ":begin", "    // " + region + ":end",
                    SOURCE);
            String block = EmbeddingDocTest.between(doc, "<!-- include: " + SOURCE + " " + region + " -->",
                    EmbeddingDocTest.DOC_END, "docs/embedding.md");
            String unindented = code.lines().map(l -> l.startsWith("    ") ? l.substring(4) : l)
                    .collect(java.util.stream.Collectors.joining("\n", "", "\n"));
            assertEquals("```java\n" + unindented + "```\n", block,
                    "docs/embedding.md's " + region + " block no longer matches " + SOURCE);
        }
    }

    static final String SOURCE = "rx-core/src/test/java/org/rx4j/rpc/example/ProductionExample.java";
}
