// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.gen.et;

import java.util.List;

/**
 * A com_err error table ({@code .et} file): a table name, its code base and its codes in order.
 *
 * @param name the table name as written after {@code error_table}, e.g. {@code VL}
 * @param base the first code: see {@link #baseOf(String)}
 * @param entries the codes in order (code = base + index, {@code index N} lines skip ahead)
 */
public record ErrorTable(String name, int base, List<Entry> entries) {
    /** The characters com_err numbers 1..63 when it turns a table name into a base. */
    static final String CHARSET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_";

    /**
     * One code.
     *
     * @param name its C name, e.g. {@code VL_NOENT}
     * @param code its value
     * @param message the table's text for it
     */
    public record Entry(String name, int code, String message) {
    }

    /**
     * The code base com_err computes from a table name: each of the first 4 characters becomes 6 bits (its
     * 1-based position in {@code A-Z a-z 0-9 _}), the bits are concatenated, and the result is shifted left by 8
     * (each table owns 256 codes), truncated to 32 bits. E.g. {@code VL} gives 363520, {@code PT} 267264,
     * {@code BZ} 39424, {@code U} 5376.
     *
     * @param name the table name
     * @return the base
     * @throws IllegalArgumentException if a character is outside com_err's character set
     */
    public static int baseOf(String name) {
        long n = 0;
        for (int i = 0; i < Math.min(4, name.length()); i++) {
            int v = CHARSET.indexOf(name.charAt(i));
            if (v < 0) {
                throw new IllegalArgumentException("table name character '" + name.charAt(i)
                        + "' is not one of A-Z a-z 0-9 _");
            }
            n = (n << 6) + v + 1;
        }
        return (int) (n << 8);
    }
}
