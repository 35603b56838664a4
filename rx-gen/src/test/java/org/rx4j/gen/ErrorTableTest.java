// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.gen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.rx4j.gen.et.ErrorTable;
import org.rx4j.gen.et.EtParser;
import org.rx4j.gen.java.ErrorTableGenerator;
import org.rx4j.gen.java.JavaGenerator;
import org.rx4j.gen.xg.XgException;

/** com_err .et tables: the base from the table name, the entries, errors, and the generated lookup class. */
class ErrorTableTest {

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({
        // the bases AFS's tables have (Debian's /usr/include/afs headers list them as ERROR_TABLE_BASE_*)
        "VL, 363520", "PT, 267264", "BZ, 39424", "U, 5376", "RXK, 19270400", "KTC, 11862784"})
    void baseFromTableName(String name, int base) {
        assertEquals(base, ErrorTable.baseOf(name));
    }

    @Test
    void entriesFollowIndexAndPrefix() throws XgException {
        ErrorTable t = EtParser.parse("sample.et", GeneratedCode.resource("xg/sample.et"));
        assertEquals("U", t.name());
        assertEquals(List.of(
                new ErrorTable.Entry("U_FIRST", 5376, "the first one"),
                new ErrorTable.Entry("U_SECOND", 5377, "with \"quotes\" and a tab\t"),
                new ErrorTable.Entry("X_TENTH", 5386, "after an index jump"),
                new ErrorTable.Entry("ELEVENTH", 5387, "prefix cleared")), t.entries());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '\'', textBlock = """
        error_tabel VL                       | t.et:1:1: expected 'error_table', found 'error_tabel'
        error_table V-L                      | t.et:1:14: expected 'ec', 'index', 'prefix' or 'end', found '-'
        error_table VL ec A "x" end          | t.et:1:21: expected ',', found '"'
        error_table VL ec A, "x              | t.et:1:22: unterminated string
        error_table VL ec A, "x" ec A, "y" end | t.et:1:29: code A is already defined
        error_table VL ec A, "x"             | t.et:1:25: expected 'end', found end of file
        error_table VL index 5 ec A, "x" index 2 end | t.et:1:40: index 2 goes back (next is 6)
        """)
    void malformedTablesAreLocated(String source, String message) {
        XgException e = assertThrows(XgException.class, () -> EtParser.parse("t.et", source));
        assertEquals(message, e.getMessage());
    }

    @Test
    void generatedClassDescribesCodes(@TempDir Path dir) throws Exception {
        ErrorTable t = EtParser.parse("sample.et", GeneratedCode.resource("xg/sample.et"));
        String source = ErrorTableGenerator.generate(t, "sample.et", "org.example.err");
        assertEquals("UErrors", ErrorTableGenerator.className(t));
        List<Path> files = JavaGenerator.write(Map.of("UErrors", source), "org.example.err", dir.resolve("src"));
        ClassLoader loader = GeneratedCode.compile(dir, files);
        Class<?> c = loader.loadClass("org.example.err.UErrors");
        Method describe = c.getMethod("describe", int.class);
        assertEquals("X_TENTH (5386): after an index jump", describe.invoke(null, 5386));
        assertNull(describe.invoke(null, 5380));
        assertEquals(5376, c.getField("BASE").getInt(null));
        assertEquals(5377, c.getField("U_SECOND").getInt(null));
        assertEquals("with \"quotes\" and a tab\t", c.getMethod("message", int.class).invoke(null, 5377));
        assertEquals(Map.of(5376, "U_FIRST", 5377, "U_SECOND", 5386, "X_TENTH", 5387, "ELEVENTH"),
                c.getMethod("names").invoke(null));
        assertEquals(List.of("UErrors.java"), List.of(files.get(0).getFileName().toString()));
        assertEquals(true, Files.readString(files.get(0)).contains("public static final int X_TENTH = 5386;"));

        // Registered with rx-core's registry: RxException names the table's codes.
        c.getMethod("register").invoke(null);
        assertEquals("call aborted by peer: X_TENTH (5386): after an index jump",
                org.rx4j.rpc.errors.RxException.remote(5386).getMessage());
        assertEquals("X_TENTH", org.rx4j.rpc.errors.RxException.remote(5386).codeName());
    }
}
