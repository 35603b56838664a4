package org.rx4j.gen;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rx4j.gen.java.JavaGenerator;

/** C names that are Java keywords, Object methods or the generated code's own names still give compiling code. */
class AwkwardNamesTest {
    @Test
    void collidingNamesAreRenamedAndCompile(@TempDir Path dir) throws Exception {
        Map<String, String> g = GeneratedCode.generate("xg/awkward.xg", "");
        assertTrue(g.containsKey("ListType"), g.keySet().toString());       // java.util.List is imported
        assertTrue(g.get("ListType").contains("int class_, int hashCode_, String record_"), g.get("ListType"));
        assertTrue(g.get("AwkwardClient").contains("connectionRpc(int deadline, int connection, int writer, int call,"
                + " Duration deadline2)"), g.get("AwkwardClient"));
        assertTrue(g.get("AwkwardClient").contains("getClass_("), g.get("AwkwardClient"));
        assertTrue(g.get("U").contains("record Which(int whichValue)"), g.get("U"));
        assertTrue(g.get("U").contains("record CaseMinus1()"), g.get("U"));
        GeneratedCode.compile(dir, JavaGenerator.write(g, "", dir.resolve("src")));
    }
}
