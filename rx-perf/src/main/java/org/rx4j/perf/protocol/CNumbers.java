// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.perf.protocol;

/**
 * Parses integers as C's {@code strtol(s, &end, 0)} with a full-string check, which is how OpenAFS rxperf reads
 * every numeric flag and FILE word: optional sign, then {@code 0x}/{@code 0X} hex, a leading {@code 0} octal,
 * or decimal. Unlike strtol, overflow is an error instead of clamping.
 */
public final class CNumbers {
    private CNumbers() {
    }

    /**
     * Parses a number.
     *
     * @param text the text, no surrounding spaces
     * @return the value
     * @throws NumberFormatException if the text is not a whole number in that syntax or does not fit a long
     */
    public static long parseLong(String text) {
        String s = text;
        boolean negative = false;
        if (s.startsWith("-") || s.startsWith("+")) {
            negative = s.charAt(0) == '-';
            s = s.substring(1);
        }
        int radix = 10;
        if (s.length() > 2 && (s.startsWith("0x") || s.startsWith("0X"))) {
            radix = 16;
            s = s.substring(2);
        } else if (s.length() > 1 && s.startsWith("0")) {
            radix = 8;
            s = s.substring(1);
        }
        if (s.isEmpty() || s.charAt(0) == '-' || s.charAt(0) == '+') {
            throw new NumberFormatException("not a number: " + text);
        }
        long magnitude = Long.parseLong(s, radix);
        return negative ? -magnitude : magnitude;
    }
}
