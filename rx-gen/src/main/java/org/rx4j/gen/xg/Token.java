// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.gen.xg;

/**
 * One lexical token of an {@code .xg} file.
 *
 * @param kind what it is
 * @param text the characters as written (for {@link Kind#NUMBER} the literal, e.g. {@code 0x10})
 * @param pos where it starts
 */
public record Token(Kind kind, String text, Pos pos) {
    /** Token kinds. Keywords are {@link #IDENT}s; the parser compares their text. */
    public enum Kind {
        /** A C identifier or keyword. */
        IDENT,
        /** A decimal, octal (leading 0) or hexadecimal (0x) integer, optionally negative. */
        NUMBER,
        /** One punctuation character: {@code { } ( ) [ ] < > ; , = : *}. */
        PUNCT,
        /** The end of the input. */
        EOF
    }

    /** @return how a message shows this token: {@code 'text'} or {@code end of file} */
    public String describe() {
        return kind == Kind.EOF ? "end of file" : "'" + text + "'";
    }

    /**
     * @param s a keyword or punctuation
     * @return true if this token is exactly s (an identifier, number or punctuation)
     */
    public boolean is(String s) {
        return kind != Kind.EOF && text.equals(s);
    }
}
