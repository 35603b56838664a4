// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.gen.xg;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits an {@code .xg} file into {@link Token}s. Skips white space and C comments ({@code /* *}{@code /} and
 * {@code //}). A line whose first non-blank character is {@code %} is rxgen's pass-through to the generated C;
 * it is skipped and reported in {@link #notes()}. A {@code #} line (a C preprocessor directive, which rxgen
 * leaves to cpp) is refused: rx-gen has no preprocessor.
 */
public final class Lexer {
    private static final String PUNCT = "{}()[]<>;,=:*";

    private final String file;
    private final String src;
    private final List<String> notes = new ArrayList<>();
    private int at;
    private int line = 1;
    private int col = 1;

    /**
     * @param file the file name for positions
     * @param src the whole file
     */
    public Lexer(String file, String src) {
        this.file = file;
        this.src = src;
    }

    /**
     * @return every token, ending with one {@link Token.Kind#EOF}
     * @throws XgException for an unterminated comment, a preprocessor line or a character that starts no token
     */
    public List<Token> tokens() throws XgException {
        List<Token> out = new ArrayList<>();
        while (true) {
            skipBlankAndComments();
            Pos pos = pos();
            if (at >= src.length()) {
                out.add(new Token(Token.Kind.EOF, "", pos));
                return out;
            }
            char c = src.charAt(at);
            if (Character.isLetter(c) || c == '_') {
                int start = at;
                while (at < src.length() && (Character.isLetterOrDigit(src.charAt(at)) || src.charAt(at) == '_')) {
                    advance();
                }
                out.add(new Token(Token.Kind.IDENT, src.substring(start, at), pos));
            } else if (Character.isDigit(c) || (c == '-' && at + 1 < src.length()
                    && Character.isDigit(src.charAt(at + 1)))) {
                int start = at;
                advance();
                while (at < src.length() && Character.isLetterOrDigit(src.charAt(at))) {
                    advance();
                }
                out.add(new Token(Token.Kind.NUMBER, src.substring(start, at), pos));
            } else if (PUNCT.indexOf(c) >= 0) {
                advance();
                out.add(new Token(Token.Kind.PUNCT, String.valueOf(c), pos));
            } else {
                throw new XgException(pos, "unexpected character '" + c + "'");
            }
        }
    }

    /** @return notes about skipped input ({@code %} lines), each {@code file:line:column: note: ...} */
    public List<String> notes() {
        return notes;
    }

    private void skipBlankAndComments() throws XgException {
        while (at < src.length()) {
            char c = src.charAt(at);
            if (Character.isWhitespace(c)) {
                advance();
            } else if (src.startsWith("/*", at)) {
                Pos start = pos();
                int end = src.indexOf("*/", at + 2);
                if (end < 0) {
                    throw new XgException(start, "unterminated comment");
                }
                while (at < end + 2) {
                    advance();
                }
            } else if (src.startsWith("//", at)) {
                skipLine();
            } else if ((c == '%' || c == '#') && atLineStart()) {
                Pos start = pos();
                int end = src.indexOf('\n', at);
                String text = src.substring(at, end < 0 ? src.length() : end).strip();
                if (c == '#') {
                    throw new XgException(start, "preprocessor directive '" + text
                            + "' is not supported (rx-gen has no C preprocessor): use const declarations");
                }
                notes.add(start + ": note: pass-through line skipped (C only): " + text);
                skipLine();
            } else {
                return;
            }
        }
    }

    private boolean atLineStart() {
        for (int i = at - 1; i >= 0 && src.charAt(i) != '\n'; i--) {
            if (!Character.isWhitespace(src.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    private void skipLine() {
        while (at < src.length() && src.charAt(at) != '\n') {
            advance();
        }
    }

    private void advance() {
        if (src.charAt(at) == '\n') {
            line++;
            col = 1;
        } else {
            col++;
        }
        at++;
    }

    private Pos pos() {
        return new Pos(file, line, col);
    }
}
