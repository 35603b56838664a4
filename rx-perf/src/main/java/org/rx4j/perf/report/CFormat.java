// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.perf.report;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * C's {@code printf("%.Ng", value)} in Java, so rxperf's rate prints exactly as OpenAFS's {@code %.4g}
 * (rx-wire-facts.md §10). Java's {@code %g} differs: it never strips trailing zeros and switches to exponent form
 * at other thresholds. Rules (C11 7.21.6.1, glibc): P = N, or 1 if N is 0; X = the decimal exponent after rounding
 * to P significant digits; style {@code f} with P−1−X decimals if P > X ≥ −4, else style {@code e} with P−1
 * decimals and an at least two-digit signed exponent; then trailing zeros and a trailing point are removed.
 * Rounding is to nearest, ties to even, on the exact binary value (as glibc). Verified against glibc output in
 * {@code src/test/resources/cformat-g4.tsv}.
 */
public final class CFormat {
    private CFormat() {
    }

    /**
     * Formats like C's {@code %.<precision>g}.
     *
     * @param value any double, including ±0, subnormals, ±infinity and NaN
     * @param precision significant digits N ≥ 0 (0 means 1)
     * @return e.g. {@code 600.5}, {@code 2}, {@code 1e-05}, {@code 1.235e+06}, {@code -0}, {@code inf}, {@code nan}
     * @throws IllegalArgumentException if {@code precision} is negative
     */
    public static String g(double value, int precision) {
        if (precision < 0) {
            throw new IllegalArgumentException("precision " + precision + " < 0");
        }
        int p = precision == 0 ? 1 : precision;
        boolean negative = Double.doubleToRawLongBits(value) < 0;
        String sign = negative ? "-" : "";
        if (Double.isNaN(value)) {
            return sign + "nan";
        }
        if (Double.isInfinite(value)) {
            return sign + "inf";
        }
        if (value == 0.0) {
            return sign + "0";
        }
        BigDecimal rounded = new BigDecimal(Math.abs(value)).round(new MathContext(p, RoundingMode.HALF_EVEN));
        int exponent = rounded.precision() - rounded.scale() - 1;
        String digits = stripTrailingZeros(rounded.unscaledValue().toString());
        if (exponent < p && exponent >= -4) {
            return sign + fixed(digits, exponent);
        }
        return sign + scientific(digits, exponent);
    }

    private static String fixed(String digits, int exponent) {
        if (exponent < 0) {
            return "0." + "0".repeat(-exponent - 1) + digits;
        }
        int integerDigits = exponent + 1;
        if (digits.length() <= integerDigits) {
            return digits + "0".repeat(integerDigits - digits.length());
        }
        return digits.substring(0, integerDigits) + "." + digits.substring(integerDigits);
    }

    private static String scientific(String digits, int exponent) {
        StringBuilder out = new StringBuilder(digits.length() + 6);
        out.append(digits.charAt(0));
        if (digits.length() > 1) {
            out.append('.').append(digits, 1, digits.length());
        }
        out.append('e').append(exponent < 0 ? '-' : '+');
        int magnitude = Math.abs(exponent);
        if (magnitude < 10) {
            out.append('0');
        }
        return out.append(magnitude).toString();
    }

    private static String stripTrailingZeros(String digits) {
        int end = digits.length();
        while (end > 1 && digits.charAt(end - 1) == '0') {
            end--;
        }
        return digits.substring(0, end);
    }
}
