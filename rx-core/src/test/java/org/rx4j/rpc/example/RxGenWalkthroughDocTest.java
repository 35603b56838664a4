// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc.example;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * docs/embedding.md's "From an .xg file to a running client and server" shows rx-gen-example's real files: the
 * interface file and the example program verbatim, and the {@code rx-gen-maven-plugin} element of its pom (without
 * the pom's indentation). rx-gen-example's own test builds and runs those files (PhonebookExampleTest), so the
 * walk-through in the doc is a tested example.
 */
class RxGenWalkthroughDocTest {
    static final String XG = "rx-gen-example/src/main/xg/phonebook.xg";
    static final String JAVA = "rx-gen-example/src/main/java/org/rx4j/example/phonebook/PhonebookExample.java";
    static final String POM = "rx-gen-example/pom.xml";

    /** @return the single code fence between {@code <!-- include: what -->} and the next end marker, unfenced */
    static String included(String doc, String what, String lang) {
        String block = EmbeddingDocTest.between(doc, "<!-- include: " + what + " -->", EmbeddingDocTest.DOC_END,
                "docs/embedding.md (" + what + ")");
        String open = "```" + lang + "\n";
        assertTrue(block.startsWith(open) && block.endsWith("```\n"), what + ": the included block is one " + lang
                + " code fence");
        return block.substring(open.length(), block.length() - "```\n".length());
    }

    @Test
    void walkthroughShowsTheExampleProjectsRealFiles() throws IOException {
        Path root = EmbeddingDocTest.repoRoot();
        String doc = Files.readString(root.resolve("docs/embedding.md"));
        assertEquals(Files.readString(root.resolve(XG)), included(doc, XG, "c"), "the doc's copy of " + XG);
        assertEquals(Files.readString(root.resolve(JAVA)), included(doc, JAVA, "java"), "the doc's copy of " + JAVA);
        assertEquals(pluginElement(Files.readString(root.resolve(POM))),
                included(doc, POM + " (the rx-gen-maven-plugin element)", "xml"), "the doc's plugin snippet");
    }

    /** @return the {@code <plugin>} element that names rx-gen-maven-plugin, de-indented to its own column */
    static String pluginElement(String pom) {
        int name = pom.indexOf("<artifactId>rx-gen-maven-plugin</artifactId>");
        assertTrue(name > 0, "rx-gen-example's pom uses the plugin");
        int start = pom.lastIndexOf("<plugin>", name);
        int lineStart = pom.lastIndexOf('\n', start) + 1;
        int end = pom.indexOf("</plugin>", name) + "</plugin>".length();
        int indent = start - lineStart;
        return pom.substring(lineStart, end).lines()
                .map(l -> l.length() >= indent && l.substring(0, indent).isBlank() ? l.substring(indent) : l)
                .collect(Collectors.joining("\n", "", "\n"));
    }
}
