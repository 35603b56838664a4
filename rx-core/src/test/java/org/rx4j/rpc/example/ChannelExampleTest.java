// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc.example;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.rx4j.testing.LeakCheckExtension;

/**
 * docs/embedding.md "Channels" includes {@link ChannelExample} verbatim (the doc's java block after its include
 * marker equals the source between the file's {@code channel-example:begin/end} markers), and its {@code main} runs:
 * the dead address listed first is ejected after 3 failed attempts, each repeated on a live server.
 */
@Timeout(60)
@ExtendWith(LeakCheckExtension.class)
class ChannelExampleTest {
    static final String SOURCE = "rx-core/src/test/java/org/rx4j/rpc/example/ChannelExample.java";

    @Test
    void docIncludesTheExampleSourceVerbatim() throws Exception {
        EmbeddingDocTest.assertIncludedVerbatim(SOURCE, "channel-example");
    }

    @Test
    void mainRunsAndPrintsWhatTheDocShows() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream saved = System.out;
        try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
            System.setOut(out);
            ChannelExample.main(new String[0]);
        } finally {
            System.setOut(saved);
        }
        List<String> lines = bytes.toString(StandardCharsets.UTF_8).lines().toList();
        assertEquals(List.of("12 sums: 156", "calls 12, repeats 3", "EJECTED: 3 attempts, 3 failed",
                "SERVING: 5 attempts, 0 failed", "SERVING: 7 attempts, 0 failed"), lines);
        String doc = Files.readString(EmbeddingDocTest.repoRoot().resolve("docs/embedding.md"));
        assertTrue(doc.contains("```\n" + String.join("\n", lines) + "\n```\n"), "the doc shows this output");
    }
}
