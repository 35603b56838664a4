package org.rx4j.gen.java;

/** A Java source text under construction, with 4-space indentation by braces the caller opens and closes. */
final class Src {
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
        if (lines.length == 1 && lines[0].length() < 100) {
            return line("/** " + lines[0] + " */");
        }
        line("/**");
        for (String l : lines) {
            line(l.isEmpty() ? " *" : " * " + l);
        }
        return line(" */");
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
        if (one.length() + 4 * indent <= 110 || items.size() < 2) {
            return line(one);
        }
        line(head + "(");
        for (int i = 0; i < items.size(); i++) {
            line("        " + items.get(i) + (i == items.size() - 1 ? ")" + tail : ","));
        }
        return this;
    }

    @Override
    public String toString() {
        return text.toString();
    }
}
