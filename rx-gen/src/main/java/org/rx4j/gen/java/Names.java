// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.gen.java;

import java.util.Locale;
import java.util.Set;

/** Java names for C names: classes in UpperCamelCase, members in lowerCamelCase, constants as written. */
final class Names {
    /** Java keywords and literals, and names a record component or method must not take. */
    private static final Set<String> RESERVED = Set.of(
            "abstract", "assert", "boolean", "break", "byte", "case", "catch", "char", "class", "const",
            "continue", "default", "do", "double", "else", "enum", "extends", "final", "finally", "float", "for",
            "goto", "if", "implements", "import", "instanceof", "int", "interface", "long", "native", "new",
            "package", "private", "protected", "public", "return", "short", "static", "strictfp", "super",
            "switch", "synchronized", "this", "throw", "throws", "transient", "try", "void", "volatile", "while",
            "true", "false", "null", "var", "yield", "record", "sealed", "permits", "_",
            "hashCode", "toString", "equals", "getClass", "notify", "notifyAll", "wait", "clone", "finalize");
    /** Simple names the generated files import or use; a generated class must not shadow them. */
    private static final Set<String> TAKEN_CLASSES = Set.of(
            "List", "Arrays", "Objects", "Duration", "CompletableFuture", "CompletionException",
            "CancellationException", "IOException", "InterruptedIOException", "InetSocketAddress", "RxCall",
            "RxCallTarget", "RxConnection", "RxConnectionPool", "RxEndpoint", "RxPoolConfig", "RxException", "RxService", "SecurityClass", "XdrCodec", "XdrMarshaller",
            "XdrReader", "XdrSide", "XdrUnmarshaller", "XdrWriter", "String", "Integer", "Long", "Short", "Byte",
            "Boolean", "Object", "Override", "Exception", "Void", "Math", "System", "Record", "Enum",
            "CompletionStage", "RxRequest");

    private Names() {
    }

    /**
     * @param c a C name, e.g. {@code vldbentry}, {@code ktc_principal}, {@code VL_}
     * @return an UpperCamelCase class name, e.g. {@code Vldbentry}, {@code KtcPrincipal}, {@code Vl}
     */
    static String type(String c) {
        StringBuilder b = new StringBuilder();
        for (String part : c.split("_")) {
            if (part.isEmpty()) {
                continue;
            }
            boolean allUpper = part.equals(part.toUpperCase(Locale.ROOT));
            String rest = allUpper ? part.substring(1).toLowerCase(Locale.ROOT) : part.substring(1);
            b.append(Character.toUpperCase(part.charAt(0))).append(rest);
        }
        String s = b.length() == 0 ? "X" : b.toString();
        if (Character.isDigit(s.charAt(0))) {
            s = "X" + s;
        }
        return TAKEN_CLASSES.contains(s) ? s + "Type" : s;
    }

    /**
     * @param c a C member, parameter or proc name, e.g. {@code volumeId}, {@code GetEntryByID}
     * @return a lowerCamelCase Java name, {@code _}-suffixed if it is reserved
     */
    static String member(String c) {
        String s = c;
        if (!s.isEmpty() && Character.isUpperCase(s.charAt(0))) {
            int upper = 0;
            while (upper < s.length() && Character.isUpperCase(s.charAt(upper))) {
                upper++;
            }
            // "GetX" -> "getX"; "ID" -> "id"; "VLDBEntry" -> "vldbEntry"
            int lower = upper == s.length() ? upper : Math.max(1, upper - 1);
            s = s.substring(0, lower).toLowerCase(Locale.ROOT) + s.substring(lower);
        }
        return RESERVED.contains(s) ? s + "_" : s;
    }

    /**
     * @param c a proc name in CamelCase, e.g. {@code GetEntryByID}
     * @return an UPPER_SNAKE constant name, e.g. {@code GET_ENTRY_BY_ID}
     */
    static String constant(String c) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < c.length(); i++) {
            char ch = c.charAt(i);
            if (i > 0 && Character.isUpperCase(ch)) {
                char prev = c.charAt(i - 1);
                boolean nextLower = i + 1 < c.length() && Character.isLowerCase(c.charAt(i + 1));
                if (Character.isLowerCase(prev) || Character.isDigit(prev) || (Character.isUpperCase(prev) && nextLower)) {
                    b.append('_');
                }
            }
            b.append(Character.toUpperCase(ch));
        }
        return b.toString();
    }

    /**
     * @param text any text
     * @return the text safe inside a Javadoc comment or a Java string literal
     */
    static String quote(String text) {
        return text.replace("\\", "\\\\").replace("\"", "\\\"").replace("*/", "*&#47;");
    }
}
