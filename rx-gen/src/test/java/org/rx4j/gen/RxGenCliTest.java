// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.gen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rx4j.gen.cli.RxGenCli;

/** The CLI's exit codes and messages: 0 and files written, 1 with file:line:column, 2 with one line for bad flags. */
class RxGenCliTest {
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        return RxGenCli.run(new PrintWriter(out), new PrintWriter(err), args);
    }

    @Test
    void writesThePackageDirectoryAndPrintsNotes(@TempDir Path dir) throws Exception {
        Path xg = dir.resolve("greeter.xg");
        Files.writeString(xg, GeneratedCode.resource("xg/greeter.xg") + "\n%skipped\n");
        Path outDir = dir.resolve("out");
        assertEquals(0, run("-d", outDir.toString(), "-p", "org.example.g", xg.toString()));
        Path client = outDir.resolve("org/example/g/GrClient.java");
        assertTrue(Files.exists(client));
        assertTrue(out.toString().contains(client.toString()), out.toString());
        assertEquals(xg + ":19:1: note: pass-through line skipped (C only): %skipped", err.toString().strip());
    }

    @Test
    void badInputExitsOneWithItsPosition(@TempDir Path dir) throws Exception {
        Path xg = dir.resolve("bad.xg");
        Files.writeString(xg, "struct s {\n  int a\n};\n");
        assertEquals(1, run("-d", dir.toString(), xg.toString()));
        assertEquals(xg + ":3:1: expected ';', found '}'", err.toString().strip());
        assertEquals("", out.toString());
    }

    @Test
    void takesSeveralFilesXgAndEt(@TempDir Path dir) throws Exception {
        Path xg = dir.resolve("greeter.xg");
        Files.writeString(xg, GeneratedCode.resource("xg/greeter.xg"));
        Path et = dir.resolve("sample.et");
        Files.writeString(et, GeneratedCode.resource("xg/sample.et"));
        Path outDir = dir.resolve("out");
        assertEquals(0, run("-d", outDir.toString(), "-p", "org.example.g", xg.toString(), et.toString()), err.toString());
        assertTrue(Files.exists(outDir.resolve("org/example/g/GrClient.java")));
        try (var files = Files.list(outDir.resolve("org/example/g"))) {
            assertTrue(files.anyMatch(f -> f.getFileName().toString().endsWith("Errors.java")), out.toString());
        }
    }

    @Test
    void aParseErrorLeavesNoPartialOutput(@TempDir Path dir) throws Exception {
        Path et = dir.resolve("sample.et");
        Files.writeString(et, GeneratedCode.resource("xg/sample.et"));
        Path xg = dir.resolve("bad.xg");
        Files.writeString(xg, "struct s {\n  int a\n};\n");
        Path outDir = dir.resolve("out");
        assertEquals(1, run("-d", outDir.toString(), et.toString(), xg.toString()));
        assertEquals(xg + ":3:1: expected ';', found '}'", err.toString().strip());
        assertTrue(!Files.exists(outDir), "nothing written");
        assertEquals("", out.toString());
    }

    @Test
    void twoFilesGeneratingOneClassAreRefused(@TempDir Path dir) throws Exception {
        Path et = dir.resolve("sample.et");
        Files.writeString(et, GeneratedCode.resource("xg/sample.et"));
        Path outDir = dir.resolve("out");
        assertEquals(1, run("-d", outDir.toString(), et.toString(), et.toString()));
        assertTrue(err.toString().contains("is also generated from " + et), err.toString());
        assertTrue(!Files.exists(outDir), "nothing written");
    }

    @Test
    void badFlagsExitTwoWithOneLine(@TempDir Path dir) {
        assertEquals(2, run("--bogus", "x.xg"));
        assertEquals(1, err.toString().strip().lines().count(), err.toString());
        assertTrue(err.toString().startsWith("rx-gen: "), err.toString());
        err.getBuffer().setLength(0);
        assertEquals(2, run("x.xg"));
        assertTrue(err.toString().contains("-d"), err.toString());
        err.getBuffer().setLength(0);
        assertEquals(2, run("-d", dir.toString(), "-p", "not a package", "x.xg"));
        assertEquals(1, err.toString().strip().lines().count(), err.toString());
    }

    @Test
    void missingFileExitsOne(@TempDir Path dir) {
        assertEquals(1, run("-d", dir.toString(), dir.resolve("none.xg").toString()));
        assertTrue(err.toString().startsWith("rx-gen: "), err.toString());
    }
}
