package org.rx4j.gen.maven;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.lang.reflect.Field;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.project.MavenProject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The goal without a Maven run: its parameters set as Maven would, on a project rooted in a temporary directory. */
class GenerateMojoTest {
    private static GenerateMojo mojo(Path base, String pkg) throws Exception {
        MavenProject project = new MavenProject();
        project.setFile(base.resolve("pom.xml").toFile());
        GenerateMojo m = new GenerateMojo();
        set(m, "sourceDirectory", base.resolve("src/main/xg").toFile());
        set(m, "outputDirectory", base.resolve("target/generated-sources/rx-gen").toFile());
        set(m, "packageName", pkg);
        set(m, "project", project);
        return m;
    }

    private static void set(Object o, String field, Object value) throws Exception {
        Field f = GenerateMojo.class.getDeclaredField(field);
        f.setAccessible(true);
        f.set(o, value);
    }

    private static MavenProject project(GenerateMojo m) throws Exception {
        Field f = GenerateMojo.class.getDeclaredField("project");
        f.setAccessible(true);
        return (MavenProject) f.get(m);
    }

    @Test
    void generatesXgAndEtAndAddsTheSourceRoot(@TempDir Path base) throws Exception {
        Path xg = Files.createDirectories(base.resolve("src/main/xg/sub"));
        Files.writeString(xg.resolve("calc.xg"), "package C_\nAdd(IN int a, int b, OUT int *sum) = 1;\n");
        Files.writeString(xg.resolve("calc.et"), "error_table CA\nec CA_OVERFLOW, \"too big\"\nend\n");
        GenerateMojo m = mojo(base, "org.example.calc");
        m.execute();
        Path out = base.resolve("target/generated-sources/rx-gen");
        for (String c : List.of("CClient", "CServer", "CDispatcher", "COpcodes", "CaErrors")) {
            assertTrue(Files.exists(out.resolve("org/example/calc/" + c + ".java")), c);
        }
        assertEquals(List.of(out.toFile().getPath()), project(m).getCompileSourceRoots());
    }

    @Test
    void malformedInputFailsTheBuildWithItsPosition(@TempDir Path base) throws Exception {
        Path xg = Files.createDirectories(base.resolve("src/main/xg"));
        Files.writeString(xg.resolve("bad.xg"), "struct s {\n  int a\n};\n");
        MojoFailureException e = assertThrows(MojoFailureException.class, () -> mojo(base, "").execute());
        assertEquals("src" + File.separator + "main" + File.separator + "xg" + File.separator
                + "bad.xg:3:1: expected ';', found '}'", e.getMessage());
    }

    @Test
    void malformedInputLeavesNoPartialOutput(@TempDir Path base) throws Exception {
        Path xg = Files.createDirectories(base.resolve("src/main/xg"));
        // a.et sorts (and is parsed) before b.xg: its class must not be written when b.xg fails.
        Files.writeString(xg.resolve("a.et"), "error_table CA\nec CA_OVERFLOW, \"too big\"\nend\n");
        Files.writeString(xg.resolve("b.xg"), "struct s {\n  int a\n};\n");
        assertThrows(MojoFailureException.class, () -> mojo(base, "org.example").execute());
        assertTrue(!Files.exists(base.resolve("target")), "nothing written");
    }

    @Test
    void badPackageNameFails(@TempDir Path base) throws Exception {
        Files.createDirectories(base.resolve("src/main/xg"));
        MojoFailureException e = assertThrows(MojoFailureException.class, () -> mojo(base, "not a.package").execute());
        assertTrue(e.getMessage().contains("not a Java package name"), e.getMessage());
    }

    @Test
    void missingSourceDirectoryIsNothingToDo(@TempDir Path base) throws Exception {
        GenerateMojo m = mojo(base, "");
        m.execute();
        assertTrue(project(m).getCompileSourceRoots().isEmpty());
    }
}
