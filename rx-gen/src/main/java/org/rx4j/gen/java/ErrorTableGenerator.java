// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.gen.java;

import java.util.ArrayList;
import java.util.List;
import org.rx4j.gen.et.ErrorTable;

/**
 * Generates the Java class of a com_err error table: one constant per code, and lookups from a code to its name,
 * its message and {@code NAME (code): message}, for printing application abort codes by name.
 */
public final class ErrorTableGenerator {
    private ErrorTableGenerator() {
    }

    /**
     * @param table the parsed table
     * @return the class's simple name, e.g. {@code VlErrors}
     */
    public static String className(ErrorTable table) {
        return Names.type(table.name()) + "Errors";
    }

    /**
     * @param table the parsed table
     * @param fileName the .et file name, for comments
     * @param javaPackage the class's package, "" for none
     * @return the class's source
     */
    public static String generate(ErrorTable table, String fileName, String javaPackage) {
        String cls = className(table);
        Src s = new Src();
        s.line(JavaGenerator.header(fileName));
        if (!javaPackage.isEmpty()) {
            s.line("package " + javaPackage + ";");
        }
        s.line("");
        s.line("import java.util.Collections;");
        s.line("import java.util.LinkedHashMap;");
        s.line("import java.util.Map;");
        s.line("import org.rx4j.rpc.errors.RxErrorTables;");
        s.line("");
        int size = table.entries().isEmpty() ? 0
                : table.entries().get(table.entries().size() - 1).code() - table.base() + 1;
        s.doc("The com_err error table {@code " + table.name() + "} (" + fileName + "): codes " + table.base() + ".."
                + (table.base() + Math.max(size, 1) - 1) + ", the base computed from the table name as com_err"
                + " does. Abort codes a server of this table sends can be printed with {@link #describe(int)}; the"
                + " table registers itself with {@link RxErrorTables} when this class is initialised (call"
                + " {@link #register()} once), so {@code RxException}'s message names its codes.");
        s.line("public final class " + cls + " {");
        s.doc("The table's first code (com_err's base for {@code " + table.name() + "}).");
        s.line("public static final int BASE = " + table.base() + ";");
        s.line("");
        for (ErrorTable.Entry e : table.entries()) {
            s.doc("{@code " + e.name() + "}: " + Names.quote(e.message()).replace("{", "&#123;")
                    .replace("@", "&#64;").replace("<", "&lt;"));
            s.line("public static final int " + e.name() + " = " + e.code() + ";");
            s.line("");
        }
        s.line("private static final Map<Integer, String[]> CODES;");
        s.line("");
        s.line("static {");
        s.line("Map<Integer, String[]> m = new LinkedHashMap<>();");
        for (ErrorTable.Entry e : table.entries()) {
            s.line("m.put(" + e.name() + ", new String[] {\"" + e.name() + "\", \"" + javaString(e.message())
                    + "\"});");
        }
        s.line("CODES = Collections.unmodifiableMap(m);");
        s.line("RxErrorTables.register(\"" + javaString(table.name()) + "\", CODES);");
        s.line("}");
        s.line("");
        s.line("private " + cls + "() {");
        s.line("}");
        s.line("");
        s.doc("Registers this table with {@link RxErrorTables} (done when the class is initialised; idempotent), so"
                + " that {@code RxException} messages print its codes as {@code NAME (code): message}.");
        s.line("public static void register() {");
        s.line("// The static initialiser above registered the table; calling this method is what runs it.");
        s.line("}");
        s.line("");
        s.doc("@param code an abort code", "@return true if the code belongs to this table's listed codes");
        s.line("public static boolean contains(int code) {");
        s.line("return CODES.containsKey(code);");
        s.line("}");
        s.line("");
        s.doc("@param code an abort code", "@return its name, e.g. {@code " + example(table) + "}, or null if the "
                + "table does not list it");
        s.line("public static String name(int code) {");
        s.line("String[] e = CODES.get(code);");
        s.line("return e == null ? null : e[0];");
        s.line("}");
        s.line("");
        s.doc("@param code an abort code", "@return the table's message for it, or null if the table does not list it");
        s.line("public static String message(int code) {");
        s.line("String[] e = CODES.get(code);");
        s.line("return e == null ? null : e[1];");
        s.line("}");
        s.line("");
        s.doc("@param code an abort code", "@return {@code NAME (code): message}, or null if the table does not list it");
        s.line("public static String describe(int code) {");
        s.line("String[] e = CODES.get(code);");
        s.line("return e == null ? null : e[0] + \" (\" + code + \"): \" + e[1];");
        s.line("}");
        s.line("");
        s.doc("@return code to name, in table order, unmodifiable");
        s.line("public static Map<Integer, String> names() {");
        s.line("Map<Integer, String> m = new LinkedHashMap<>();");
        s.line("CODES.forEach((code, e) -> m.put(code, e[0]));");
        s.line("return Collections.unmodifiableMap(m);");
        s.line("}");
        s.line("}");
        return s.toString();
    }

    private static String example(ErrorTable t) {
        return t.entries().isEmpty() ? t.name() + "_X" : t.entries().get(0).name();
    }

    private static String javaString(String s) {
        List<String> parts = new ArrayList<>();
        StringBuilder b = new StringBuilder();
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\t' -> b.append("\\t");
                default -> {
                    if (c < 0x20 || c > 0x7e) {
                        b.append(String.format("\\u%04x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        parts.add(b.toString());
        return String.join("", parts);
    }
}
