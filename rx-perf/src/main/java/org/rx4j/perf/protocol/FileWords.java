// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.perf.protocol;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * The word list of rxperf's FILE command (rx-wire-facts.md §10): one number per line, a blank line is 0. Each word w
 * moves 4·w bytes; a 0 word toggles direction. The client starts by sending, the server by reading. Numbers are
 * read like OpenAFS's strtol base 0 (decimal, {@code 0x} hex, leading-0 octal), 0..4294967295 (unsigned 32-bit).
 *
 * <p>rx4j also rejects a list that would make the client send again after it began to receive: an Rx client call
 * cannot send once its reply has started (OpenAFS's rx_Write then fails and rxperf exits).
 */
public final class FileWords {
    private final String name;
    private final int[] words;

    private FileWords(String name, int[] words) {
        this.name = name;
        this.words = words;
    }

    /**
     * Reads and checks a word file.
     *
     * @param file the file ({@code -f})
     * @return the words, named as given on the command line
     * @throws IllegalArgumentException with a one-line message naming the file and the line (1-based) for a bad
     *     number, too many words, or a send after receiving; or naming the file if it cannot be read
     */
    public static FileWords read(Path file) {
        try (BufferedReader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            return parse(file.toString(), reader);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read " + file + ": " + describe(e));
        }
    }

    /**
     * Parses word lines.
     *
     * @param name the file name for messages and the FILE result line
     * @param reader the lines
     * @return the words
     * @throws IOException if reading fails
     * @throws IllegalArgumentException for bad content, naming the file and line
     */
    public static FileWords parse(String name, BufferedReader reader) throws IOException {
        int[] words = new int[16];
        int count = 0;
        boolean sending = true;
        boolean received = false;
        String line;
        while ((line = reader.readLine()) != null) {
            int lineNumber = count + 1;
            if (count == RxperfProtocol.MAX_FILE_WORDS) {
                throw new IllegalArgumentException(name + " line " + lineNumber + ": more than "
                        + RxperfProtocol.MAX_FILE_WORDS + " words");
            }
            int word = parseWord(name, lineNumber, line.strip());
            if (word == 0) {
                sending = !sending;
            } else if (sending && received) {
                throw new IllegalArgumentException(name + " line " + lineNumber
                        + ": sends again after the client began to receive; an Rx call cannot send after its reply");
            } else if (!sending) {
                received = true;
            }
            if (count == words.length) {
                words = Arrays.copyOf(words, count * 2);
            }
            words[count++] = word;
        }
        return new FileWords(name, Arrays.copyOf(words, count));
    }

    /**
     * The file name as given, used in the {@code FILE <name>:} result line.
     *
     * @return the name
     */
    public String name() {
        return name;
    }

    /**
     * Number of words.
     *
     * @return 0..{@link RxperfProtocol#MAX_FILE_WORDS}
     */
    public int size() {
        return words.length;
    }

    /**
     * One word, as its unsigned 32-bit value stored in an int.
     *
     * @param index 0..size()−1
     * @return the word
     */
    public int word(int index) {
        return words[index];
    }

    /**
     * Payload bytes one call moves in both directions together: 4 × the sum of the words.
     *
     * @return bytes
     */
    public long payloadBytesPerCall() {
        long sum = 0;
        for (int word : words) {
            sum += Integer.toUnsignedLong(word);
        }
        return RxperfProtocol.FILE_WORD_UNIT * sum;
    }

    private static int parseWord(String name, int lineNumber, String text) {
        if (text.isEmpty()) {
            return 0;
        }
        long value;
        try {
            value = CNumbers.parseLong(text);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " line " + lineNumber + ": '" + text + "' is not a number");
        }
        if (value < 0 || value > 0xFFFF_FFFFL) {
            throw new IllegalArgumentException(name + " line " + lineNumber + ": " + text
                    + " is not in 0..4294967295");
        }
        return (int) value;
    }

    private static String describe(IOException e) {
        String kind = e.getClass().getSimpleName();
        if (e instanceof java.nio.file.NoSuchFileException) {
            return "no such file";
        }
        if (e instanceof java.nio.file.AccessDeniedException) {
            return "permission denied";
        }
        return e.getMessage() == null ? kind : kind + ": " + e.getMessage();
    }
}
