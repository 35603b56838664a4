// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.wire;

/**
 * Wrap-safe comparison of 32-bit seq, serial and callNumber values (RFC 1982 serial-number arithmetic
 * with a 2^31 horizon): {@code a} is before {@code b} when {@code (a - b)} is negative as an int.
 */
public final class SequenceNumbers {
    private SequenceNumbers() {
    }

    /**
     * @param a a seq/serial/callNumber
     * @param b another
     * @return negative, zero or positive as {@code a} is before, equal to or after {@code b}
     */
    public static int compare(int a, int b) {
        return Integer.signum(a - b);
    }

    /**
     * @param a a seq/serial/callNumber
     * @param b another
     * @return true when {@code a} comes strictly before {@code b}
     */
    public static boolean isBefore(int a, int b) {
        return a - b < 0;
    }

    /**
     * @param a a seq/serial/callNumber
     * @param b another
     * @return true when {@code a} comes strictly after {@code b}
     */
    public static boolean isAfter(int a, int b) {
        return a - b > 0;
    }

    /**
     * @param a a seq/serial/callNumber
     * @param b another
     * @return true when {@code a} is before or equal to {@code b}
     */
    public static boolean isAtOrBefore(int a, int b) {
        return a - b <= 0;
    }

    /**
     * @param a a seq/serial/callNumber
     * @param b another
     * @return true when {@code a} is after or equal to {@code b}
     */
    public static boolean isAtOrAfter(int a, int b) {
        return a - b >= 0;
    }

    /**
     * @param from the earlier value
     * @param to the later value
     * @return how far {@code to} is after {@code from} (negative if before), wrap-safe
     */
    public static int distance(int from, int to) {
        return to - from;
    }

    /**
     * @param a a seq/serial/callNumber
     * @param b another
     * @return the later of the two, wrap-safe
     */
    public static int max(int a, int b) {
        return isAfter(a, b) ? a : b;
    }
}
