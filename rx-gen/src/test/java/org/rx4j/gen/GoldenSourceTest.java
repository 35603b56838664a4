// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.gen;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;
import org.rx4j.gen.java.JavaGenerator;

/**
 * The exact Java generated for a small interface (src/test/resources/xg/greeter.xg) against checked-in expected
 * sources (src/test/resources/golden/*.java), and that those compile with {@code -Xlint:all -Werror}.
 * After an intended generator change, regenerate the expected files with
 * {@code -Drxgen.golden.update=rx-gen/src/test/resources/golden} and review the diff.
 */
class GoldenSourceTest {
    private static final String PACKAGE = "org.example.greeter";
    private static final List<String> CLASSES = List.of("GrAsyncDispatcher", "GrAsyncServer", "GrClient",
            "GrCountResult", "GrDispatcher", "GrMood", "GrOpcodes", "GrPerson", "GrServer", "GreeterAsyncSplitCall",
            "GreeterCallException", "GreeterConstants", "GreeterSplitCall", "GreeterXdr");

    private static Map<String, String> generated() throws Exception {
        return GeneratedCode.generate("xg/greeter.xg", PACKAGE);
    }

    @Test
    void generatesTheExpectedClasses() throws Exception {
        Map<String, String> g = generated();
        String update = System.getProperty("rxgen.golden.update");
        if (update != null) {
            for (Map.Entry<String, String> e : g.entrySet()) {
                Files.writeString(Path.of(update, e.getKey() + ".java"), e.getValue(), StandardCharsets.UTF_8);
            }
        }
        assertEquals(CLASSES, List.copyOf(g.keySet()));
    }

    @TestFactory
    Stream<DynamicTest> eachClassMatchesItsGoldenSource() throws Exception {
        Map<String, String> g = generated();
        return CLASSES.stream().map(c -> DynamicTest.dynamicTest(c, () ->
                assertEquals(GeneratedCode.resource("golden/" + c + ".java"), g.get(c), c)));
    }

    @Test
    void goldenSourcesCompileWithoutWarnings(@TempDir Path dir) throws Exception {
        List<Path> files = JavaGenerator.write(generated(), PACKAGE, dir.resolve("src"));
        GeneratedCode.compile(dir, files);
    }

    @Test
    void generatedCodeIsDeterministic() throws Exception {
        assertEquals(generated(), generated());
    }

}
