// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.perf.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** FILE word lists (rx-wire-facts.md §10). */
class FileWordsTest {
    private static FileWords parse(String text) throws IOException {
        return FileWords.parse("w.txt", new BufferedReader(new StringReader(text)));
    }

    @Test
    void blankLinesAreZeroAndNumbersAreStrtolBaseZero() throws IOException {
        FileWords words = parse("10\n\n0x10\n010\n  7  \n");
        assertEquals(5, words.size());
        assertEquals(10, words.word(0));
        assertEquals(0, words.word(1));
        assertEquals(16, words.word(2));
        assertEquals(8, words.word(3));
        assertEquals(7, words.word(4));
        assertEquals(4L * (10 + 16 + 8 + 7), words.payloadBytesPerCall());
        assertEquals("w.txt", words.name());
    }

    @Test
    void unsignedWordsUpTo32Bits() throws IOException {
        FileWords words = parse("4294967295\n");
        assertEquals(4L * 4294967295L, words.payloadBytesPerCall());
    }

    @Test
    void badLineNamesFileAndLine() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> parse("1\n2\nabc\n"));
        assertEquals("w.txt line 3: 'abc' is not a number", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> parse("-4\n"));
        assertEquals("w.txt line 1: -4 is not in 0..4294967295", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> parse("4294967296\n"));
        assertTrue(e.getMessage().startsWith("w.txt line 1:"), e.getMessage());
    }

    @Test
    void sendingAgainAfterReceivingIsRejected() throws IOException {
        parse("5\n0\n7\n0\n0\n3\n");  // send, receive, toggle twice: still receiving → fine
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> parse("5\n0\n7\n0\n9\n"));
        assertTrue(e.getMessage().startsWith("w.txt line 5: sends again"), e.getMessage());
        parse("0\n0\n5\n");  // toggles without a transfer in between never received anything
    }

    @Test
    void missingFileIsAClearError() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> FileWords.read(Path.of("/nonexistent/rxperf-words")));
        assertEquals("cannot read /nonexistent/rxperf-words: no such file", e.getMessage());
    }

    @Test
    void cNumbers() {
        assertEquals(1048576, CNumbers.parseLong("1048576"));
        assertEquals(0x100000, CNumbers.parseLong("0x100000"));
        assertEquals(0x1f, CNumbers.parseLong("0X1F"));
        assertEquals(511, CNumbers.parseLong("0777"));
        assertEquals(0, CNumbers.parseLong("0"));
        assertEquals(-5, CNumbers.parseLong("-5"));
        assertEquals(5, CNumbers.parseLong("+5"));
        assertThrows(NumberFormatException.class, () -> CNumbers.parseLong(""));
        assertThrows(NumberFormatException.class, () -> CNumbers.parseLong("0x"));
        assertThrows(NumberFormatException.class, () -> CNumbers.parseLong("08"));
        assertThrows(NumberFormatException.class, () -> CNumbers.parseLong("--5"));
        assertThrows(NumberFormatException.class, () -> CNumbers.parseLong("12k"));
    }
}
