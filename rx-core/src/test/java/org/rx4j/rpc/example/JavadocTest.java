package org.rx4j.rpc.example;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Writes rx-core's Javadoc into {@code target/apidocs} with the JDK's javadoc tool, doclint on (all groups but
 * "missing": record compact constructors would repeat the record's {@code @param} list) and warnings as errors, so
 * the published API documentation builds clean; rx-core's pom packages that directory as the {@code javadoc} jar
 * that {@code mvn install} attaches (docs/embedding.md, "Maven coordinates"). The build is offline-only and has no
 * maven-javadoc-plugin, hence a test.
 */
class JavadocTest {
    @Test
    void javadocBuildsCleanWithDoclint() throws IOException, InterruptedException {
        Path module = EmbeddingDocTest.repoRoot().resolve("rx-core");
        List<String> deps = new ArrayList<>();
        for (String e : System.getProperty("java.class.path").split(File.pathSeparator)) {
            String name = Path.of(e).getFileName().toString();
            if (name.endsWith(".jar") && (name.startsWith("netty-") || name.startsWith("slf4j-api"))) {
                deps.add(e);
            }
        }
        // The javadoc executable of the JDK running the test (javax.tools is not readable from the patched module).
        List<String> args = List.of(Path.of(System.getProperty("java.home"), "bin", "javadoc").toString(), "-quiet", "-Xdoclint:all,-missing", "-Werror",
                "-d", module.resolve("target/apidocs").toString(),
                "--module-path", String.join(File.pathSeparator, deps),
                "--source-path", module.resolve("src/main/java").toString(),
                "--module", "org.rx4j.core");
        Process p = new ProcessBuilder(args).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertEquals(0, p.waitFor(), "javadoc failed:\n" + out);
        assertEquals("", out.strip(), "javadoc printed warnings");
        assertTrue(Files.isRegularFile(module.resolve("target/apidocs/org.rx4j.core/org/rx4j/rpc/RxEndpoint.html")));
    }
}
