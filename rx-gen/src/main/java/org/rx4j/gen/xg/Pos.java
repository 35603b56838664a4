// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.gen.xg;

/**
 * A place in an {@code .xg} file, for messages in the {@code file:line:column} form compilers use.
 *
 * @param file the file name as given to the parser
 * @param line 1-based line
 * @param column 1-based column (characters, a tab counts as one)
 */
public record Pos(String file, int line, int column) {
    /** @return {@code file:line:column} */
    @Override
    public String toString() {
        return file + ":" + line + ":" + column;
    }
}
