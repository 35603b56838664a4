// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.afs.cell;

import java.io.IOException;

/**
 * A malformed line in a CellServDB or ThisCell file. The message reads {@code SOURCE:LINE: what is wrong:
 * 'the line'}, so a user can go to the line.
 */
public final class CellFormatException extends IOException {
    private static final long serialVersionUID = 1L;

    private final String source;
    private final int line;

    /**
     * @param source the file name (or another label of the input)
     * @param line the 1-based line number
     * @param problem what is wrong, e.g. "not an IPv4 address"
     * @param text the line's text, quoted in the message
     */
    public CellFormatException(String source, int line, String problem, String text) {
        super(source + ":" + line + ": " + problem + ": '" + text + "'");
        this.source = source;
        this.line = line;
    }

    /** @return the file name or label given to the parser */
    public String source() {
        return source;
    }

    /** @return the 1-based number of the malformed line */
    public int line() {
        return line;
    }
}
