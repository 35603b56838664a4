// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.perf.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * CFormat.g against glibc's printf. The table cformat-g4.tsv was generated once by our C program
 * src/test/c/cformat_table.c (gcc, glibc 2.36, Debian 12): each row is precision, the value printed with %.17g
 * (which round-trips a double), and printf("%.*g", precision, value). See that file's header to regenerate.
 */
class CFormatTest {

    @Test
    void matchesEveryRowOfTheGlibcTable() throws IOException {
        List<String> failures = new ArrayList<>();
        int rows = 0;
        try (InputStream in = CFormatTest.class.getResourceAsStream("/cformat-g4.tsv")) {
            assertNotNull(in, "cformat-g4.tsv on the test class path");
            BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.US_ASCII));
            String line;
            while ((line = reader.readLine()) != null) {
                if (line.startsWith("#") || line.isBlank()) {
                    continue;
                }
                String[] fields = line.split("\t");
                assertEquals(3, fields.length, "row: " + line);
                int precision = Integer.parseInt(fields[0]);
                double value = parseC(fields[1]);
                String actual = CFormat.g(value, precision);
                if (!actual.equals(fields[2])) {
                    failures.add("%." + precision + "g of " + fields[1] + ": C '" + fields[2] + "', Java '"
                            + actual + "'");
                }
                rows++;
            }
        }
        assertTrue(rows >= 200, "table has " + rows + " rows");
        assertEquals(List.of(), failures);
    }

    @Test
    void examplesFromRxperfOutput() {
        assertEquals("600.5", CFormat.g(600.47, 4));
        assertEquals("2", CFormat.g(2.0, 4));
        assertEquals("1e-05", CFormat.g(1.0e-5, 4));
        assertEquals("1.235e+06", CFormat.g(1234567.0, 4));
        assertEquals("198.7", CFormat.g(198.7, 4));
        assertEquals("0", CFormat.g(0.0, 4));
        assertEquals("-0", CFormat.g(-0.0, 4));
        assertEquals("inf", CFormat.g(Double.POSITIVE_INFINITY, 4));
        assertEquals("1e+04", CFormat.g(9999.5, 4));
    }

    @Test
    void precisionZeroMeansOneAndNegativeIsRejected() {
        assertEquals("2", CFormat.g(1.5, 0));
        assertThrows(IllegalArgumentException.class, () -> CFormat.g(1.0, -1));
    }

    private static double parseC(String text) {
        return switch (text) {
            case "inf" -> Double.POSITIVE_INFINITY;
            case "-inf" -> Double.NEGATIVE_INFINITY;
            case "nan", "-nan" -> Double.NaN;
            default -> Double.parseDouble(text);
        };
    }
}
