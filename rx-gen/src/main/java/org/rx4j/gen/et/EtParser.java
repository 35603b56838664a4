// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.gen.et;

import java.util.ArrayList;
import java.util.List;
import org.rx4j.gen.xg.Pos;
import org.rx4j.gen.xg.XgException;

/**
 * Reads com_err's error-table language:
 * <pre>
 * error_table NAME          (or: et NAME)
 * error_code CODE, "text"   (or: ec CODE, "text")
 * index N                   (the next code is base + N)
 * prefix PFX                (prepended to the following names; "prefix" alone clears it)
 * id "..."                  (ignored)
 * end
 * </pre>
 * with {@code #} comment lines and C comments. Errors are {@link XgException}s {@code file:line:column: ...}.
 */
public final class EtParser {
    private final String file;
    private final String src;
    private int at;
    private int line = 1;
    private int col = 1;

    private EtParser(String file, String src) {
        this.file = file;
        this.src = src;
    }

    /**
     * @param file the file name for messages
     * @param source the file's text
     * @return the table
     * @throws XgException for malformed input, a duplicate name, more than 256 codes or a bad table name
     */
    public static ErrorTable parse(String file, String source) throws XgException {
        return new EtParser(file, source).table();
    }

    private ErrorTable table() throws XgException {
        skip();
        Pos p = pos();
        String kw = word("'error_table'");
        if (!kw.equals("error_table") && !kw.equals("et")) {
            throw new XgException(p, "expected 'error_table', found '" + kw + "'");
        }
        skip();
        Pos namePos = pos();
        String name = word("a table name");
        int base;
        try {
            base = ErrorTable.baseOf(name);
        } catch (IllegalArgumentException e) {
            throw new XgException(namePos, e.getMessage());
        }
        List<ErrorTable.Entry> entries = new ArrayList<>();
        int index = 0;
        String prefix = "";
        while (true) {
            skip();
            Pos at = pos();
            if (atEnd()) {
                throw new XgException(at, "expected 'end', found end of file");
            }
            String k = word("'ec', 'index', 'prefix' or 'end'");
            switch (k) {
                case "end" -> {
                    return new ErrorTable(name, base, List.copyOf(entries));
                }
                case "index" -> {
                    skip();
                    Pos np = pos();
                    int n = Integer.parseInt(number());
                    if (n < index) {
                        throw new XgException(np, "index " + n + " goes back (next is " + index + ")");
                    }
                    index = n;
                }
                case "prefix" -> {
                    skipBlanks();
                    prefix = peekWordChar() ? word("a prefix") : "";
                }
                case "id" -> {
                    skip();
                    string();
                }
                case "ec", "error_code" -> {
                    skip();
                    Pos ep = pos();
                    String n = prefix + word("a code name");
                    skip();
                    expect(',');
                    skip();
                    String msg = string();
                    if (index > 255) {
                        throw new XgException(ep, "more than 256 codes in table " + name);
                    }
                    for (ErrorTable.Entry e : entries) {
                        if (e.name().equals(n)) {
                            throw new XgException(ep, "code " + n + " is already defined");
                        }
                    }
                    entries.add(new ErrorTable.Entry(n, base + index, msg));
                    index++;
                }
                default -> throw new XgException(at, "expected 'ec', 'index', 'prefix' or 'end', found '" + k + "'");
            }
        }
    }

    private boolean atEnd() {
        return at >= src.length();
    }

    private boolean peekWordChar() {
        return !atEnd() && (Character.isLetterOrDigit(src.charAt(at)) || src.charAt(at) == '_');
    }

    private String word(String what) throws XgException {
        Pos p = pos();
        int start = at;
        while (peekWordChar()) {
            advance();
        }
        if (start == at) {
            throw new XgException(p, "expected " + what + ", found " + found());
        }
        return src.substring(start, at);
    }

    private String number() throws XgException {
        Pos p = pos();
        String w = peekWordChar() ? word("a number") : "";
        if (!w.matches("\\d{1,9}")) {
            throw new XgException(p, "expected a number, found " + (w.isEmpty() ? found() : "'" + w + "'"));
        }
        return w;
    }

    private void expect(char c) throws XgException {
        if (atEnd() || src.charAt(at) != c) {
            throw new XgException(pos(), "expected '" + c + "', found " + found());
        }
        advance();
    }

    /** A C string literal with the usual escapes. */
    private String string() throws XgException {
        Pos start = pos();
        expect('"');
        StringBuilder b = new StringBuilder();
        while (true) {
            if (atEnd() || src.charAt(at) == '\n') {
                throw new XgException(start, "unterminated string");
            }
            char c = src.charAt(at);
            advance();
            if (c == '"') {
                return b.toString();
            }
            if (c == '\\' && !atEnd()) {
                char e = src.charAt(at);
                advance();
                b.append(switch (e) {
                    case 'n' -> '\n';
                    case 't' -> '\t';
                    default -> e;
                });
            } else {
                b.append(c);
            }
        }
    }

    private String found() {
        if (atEnd()) {
            return "end of file";
        }
        char c = src.charAt(at);
        return c == '\n' ? "end of line" : "'" + c + "'";
    }

    private void skipBlanks() {
        while (!atEnd() && (src.charAt(at) == ' ' || src.charAt(at) == '\t')) {
            advance();
        }
    }

    private void skip() throws XgException {
        while (!atEnd()) {
            char c = src.charAt(at);
            if (Character.isWhitespace(c)) {
                advance();
            } else if (c == '#') {
                while (!atEnd() && src.charAt(at) != '\n') {
                    advance();
                }
            } else if (src.startsWith("/*", at)) {
                Pos p = pos();
                int end = src.indexOf("*/", at + 2);
                if (end < 0) {
                    throw new XgException(p, "unterminated comment");
                }
                while (at < end + 2) {
                    advance();
                }
            } else {
                return;
            }
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
