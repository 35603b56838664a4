package org.rx4j.metrics.micrometer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Writes this module's Javadoc into {@code target/apidocs} with the JDK's javadoc tool, doclint on and warnings as
 * errors; the pom packages that directory as the {@code javadoc} jar, as rx-core does (the offline build has no
 * maven-javadoc-plugin).
 */
class JavadocTest {
    @Test
    void javadocBuildsCleanWithDoclint() throws IOException, InterruptedException {
        Path module = Path.of("").toAbsolutePath();
        List<String> args = List.of(Path.of(System.getProperty("java.home"), "bin", "javadoc").toString(), "-quiet",
                "-Xdoclint:all", "-Werror", "-d", module.resolve("target/apidocs").toString(),
                "-classpath", System.getProperty("java.class.path"),
                "-sourcepath", module.resolve("src/main/java").toString(), "org.rx4j.metrics.micrometer");
        Process p = new ProcessBuilder(args).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertEquals(0, p.waitFor(), "javadoc failed:\n" + out);
        assertEquals("", out.strip(), "javadoc printed warnings");
        assertTrue(Files.isRegularFile(module.resolve("target/apidocs/org/rx4j/metrics/micrometer/RxMetricsBinder.html")));
    }
}
