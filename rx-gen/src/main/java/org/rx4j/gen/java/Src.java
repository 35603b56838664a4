// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.gen.java;

/** A Java source text under construction, with 4-space indentation by braces the caller opens and closes. */
final class Src {
    /** Longest line the generator aims for, characters. */
    static final int WIDTH = 110;

    private final StringBuilder text = new StringBuilder();
    private int indent;

    /**
     * Appends one line at the current indentation; a line ending in '{' indents the next ones, a line
     * starting with '}' outdents itself and the next ones.
     *
     * @param line the line without its newline; "" for an empty line
     * @return this
     */
    Src line(String line) {
        if (line.startsWith("}")) {
            indent--;
        }
        if (!line.isEmpty()) {
            text.append("    ".repeat(Math.max(indent, 0))).append(line);
        }
        text.append('\n');
        if (line.endsWith("{")) {
            indent++;
        }
        return this;
    }

    /**
     * Appends a Javadoc comment of one or more lines.
     *
     * @param lines the comment's lines, without {@code *}
     * @return this
     */
    Src doc(String... lines) {
        int n = lines.length;
        while (n > 1 && lines[n - 1].isEmpty()) {
            n--;
        }
        lines = java.util.Arrays.copyOf(lines, n);
        int width = WIDTH - 4 * indent - 3;
        if (lines.length == 1 && lines[0].length() + 4 <= width) {
            return line("/** " + lines[0] + " */");
        }
        line("/**");
        for (String l : lines) {
            if (l.isEmpty()) {
                line(" *");
                continue;
            }
            String rest = l;
            String cont = l.startsWith("@") ? "    " : "";
            boolean first = true;
            while (true) {
                String prefix = first ? "" : cont;
                int room = width - prefix.length();
                if (rest.length() <= room) {
                    line(" * " + prefix + rest);
                    break;
                }
                int cut = rest.lastIndexOf(' ', room);
                if (cut <= 0) {
                    cut = rest.indexOf(' ', room);
                }
                if (cut <= 0) {
                    line(" * " + prefix + rest);
                    break;
                }
                line(" * " + prefix + rest.substring(0, cut));
                rest = rest.substring(cut + 1);
                first = false;
            }
        }
        return line(" */");
    }

    /**
     * Appends a statement, broken after a top-level ", " with an 8-space continuation when it is long. Only for
     * lines whose string literals contain no ", ".
     *
     * @param line the statement
     * @return this
     */
    Src wrapped(String line) {
        String rest = line;
        String cont = "";
        while (4 * indent + cont.length() + rest.length() > WIDTH) {
            int cut = rest.lastIndexOf(", ", WIDTH - 4 * indent - cont.length() - 1);
            if (cut <= 0) {
                break;
            }
            line(cont + rest.substring(0, cut + 1));
            rest = rest.substring(cut + 2);
            cont = "        ";
        }
        return line(cont + rest);
    }

    /**
     * Appends a declaration with a parenthesized list, one item per line when the whole would be long.
     *
     * @param head the text before '(' e.g. {@code public record Foo}
     * @param items the list items
     * @param tail the text after ')' e.g. {@code  {}
     * @return this
     */
    Src list(String head, java.util.List<String> items, String tail) {
        String one = head + "(" + String.join(", ", items) + ")" + tail;
        if (one.length() + 4 * indent <= WIDTH || items.size() < 2) {
            return line(one);
        }
        line(head + "(");
        for (int i = 0; i < items.size(); i++) {
            line("        " + items.get(i) + (i == items.size() - 1 ? ")" + tail : ","));
        }
        return this;
    }

    /** Drops trailing empty lines (before a closing brace). */
    void trimBlank() {
        while (text.length() >= 2 && text.charAt(text.length() - 1) == '\n' && text.charAt(text.length() - 2) == '\n') {
            text.setLength(text.length() - 1);
        }
    }

    @Override
    public String toString() {
        return text.toString();
    }
}
