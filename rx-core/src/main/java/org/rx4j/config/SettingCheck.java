// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.config;

/**
 * The range checks of the configuration records: each throws IllegalArgumentException naming the setting by its
 * builder setter's name, so the message points at the call that set it.
 */
final class SettingCheck {
    private SettingCheck() {
    }

    /**
     * @param name the setting's builder setter name
     * @param v the value
     * @param lo smallest allowed value
     * @param hi largest allowed value
     * @throws IllegalArgumentException if v is outside lo..hi
     */
    static void range(String name, int v, int lo, int hi) {
        if (v < lo || v > hi) {
            throw new IllegalArgumentException(name + " must be " + lo + ".." + hi + ": " + v);
        }
    }

    /**
     * @param name the setting's builder setter name
     * @param ns the value, ns
     * @param lo smallest allowed value, ns
     * @param hi largest allowed value, ns
     * @throws IllegalArgumentException if ns is outside lo..hi
     */
    static void rangeNs(String name, long ns, long lo, long hi) {
        if (ns < lo || ns > hi) {
            throw new IllegalArgumentException(name + " must be " + lo + ".." + hi + " ns: " + ns + " ns");
        }
    }

    /**
     * @param name the setting's builder setter name
     * @param v the value
     * @param lo smallest allowed value
     * @throws IllegalArgumentException if v is below lo
     */
    static void atLeast(String name, long v, long lo) {
        if (v < lo) {
            throw new IllegalArgumentException(name + " must be >= " + lo + ": " + v);
        }
    }

    /**
     * @param name the setting's builder setter name
     * @param ns the value, ns
     * @throws IllegalArgumentException if ns is 0 or negative
     */
    static void positive(String name, long ns) {
        if (ns <= 0) {
            throw new IllegalArgumentException(name + " must be > 0: " + ns + " ns");
        }
    }

    /**
     * @param name the setting's builder setter name
     * @param ns the value, ns
     * @throws IllegalArgumentException if ns is negative
     */
    static void nonNegative(String name, long ns) {
        if (ns < 0) {
            throw new IllegalArgumentException(name + " must not be negative: " + ns + " ns");
        }
    }
}
