// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.afs.cell;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Reads a ThisCell file (Debian: {@code /etc/openafs/ThisCell}): the name of the machine's own cell, on its first
 * line. Leading and trailing white space (and the final newline) are ignored; the name is returned lower case.
 */
public final class ThisCell {
    private ThisCell() {
    }

    /**
     * @param file the ThisCell file
     * @return the cell name, lower case
     * @throws CellFormatException if the file is empty or its first line holds white space inside the name
     * @throws NoSuchFileException if the file does not exist (the message says what to do)
     * @throws IOException if the file cannot be read
     */
    public static String read(Path file) throws IOException {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.ISO_8859_1);
        } catch (NoSuchFileException e) {
            NoSuchFileException told = new NoSuchFileException(file.toString(), null,
                    "no such file; it holds this machine's AFS cell name (Debian's openafs-client writes it): "
                    + "write the cell's name on its first line, or name the cell another way");
            told.initCause(e);
            throw told;
        }
        return parse(text, file.toString());
    }

    /**
     * @param text the file's contents
     * @param source the name used in error messages
     * @return the cell name, lower case
     * @throws CellFormatException if the text holds no name on its first line, or more than one word
     */
    public static String parse(String text, String source) throws CellFormatException {
        String first = text.lines().findFirst().orElse("");
        String name = first.strip();
        if (name.isEmpty()) {
            throw new CellFormatException(source, 1, "no cell name", first);
        }
        if (name.chars().anyMatch(Character::isWhitespace)) {
            throw new CellFormatException(source, 1, "more than one word where a cell name belongs", first);
        }
        return name.toLowerCase(Locale.ROOT);
    }
}
