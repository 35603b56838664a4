package org.rx4j.gen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Writes rx-gen's Javadoc into {@code target/apidocs} with the JDK's javadoc tool, doclint on (all groups but
 * "missing") and warnings as errors; rx-gen's pom packages that directory as the {@code javadoc} jar that
 * {@code mvn install} attaches (the build is offline-only and has no maven-javadoc-plugin, hence a test).
 */
class JavadocTest {
    @Test
    void javadocBuildsCleanWithDoclint() throws IOException, InterruptedException {
        Path module = Path.of("").toAbsolutePath();
        Path sources = module.resolve("src/main/java");
        assertTrue(Files.isDirectory(sources), "run from rx-gen's directory (as surefire does)");
        List<String> files;
        try (Stream<Path> s = Files.walk(sources)) {
            files = s.filter(p -> p.toString().endsWith(".java")).map(Path::toString).sorted().toList();
        }
        List<String> args = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "javadoc")
                .toString(), "-quiet", "-Xdoclint:all,-missing", "-Werror",
                "-d", module.resolve("target/apidocs").toString(),
                "-classpath", System.getProperty("java.class.path")));
        args.addAll(files);
        Process p = new ProcessBuilder(args).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.waitFor(), "javadoc failed:\n" + out);
        assertEquals("", out.strip(), "javadoc printed warnings");
        assertTrue(Files.isRegularFile(module.resolve("target/apidocs/index.html")), String.join(File.pathSeparator,
                "no index.html in", module.resolve("target/apidocs").toString()));
    }
}
