// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.security;

/**
 * Security class indexes carried in header byte 23 (rx-wire-facts.md §1; OpenAFS rx.h
 * {@code rx_securityIndex}). A connection's index never changes.
 */
public final class SecurityIndex {
    /** rxnull: no authentication, no integrity, no encryption (§11). */
    public static final int RXNULL = 0;
    /** vab: historical, unused. */
    public static final int VAB = 1;
    /** rxkad: Kerberos-ticket based, levels clear / auth / crypt (§7). */
    public static final int RXKAD = 2;
    /** rxkad with encryption always on. */
    public static final int RXKAD_ALWAYS_ENCRYPT = 3;
    /** rxgk: GSS-API based. */
    public static final int RXGK = 4;
    /** k5. */
    public static final int K5 = 5;

    private SecurityIndex() {
    }

    /**
     * @param index a security index, 0..255
     * @return its name, or {@code "index <n>"} for unassigned indexes
     */
    public static String name(int index) {
        return switch (index) {
            case RXNULL -> "rxnull";
            case VAB -> "vab";
            case RXKAD -> "rxkad";
            case RXKAD_ALWAYS_ENCRYPT -> "rxkad-always-encrypt";
            case RXGK -> "rxgk";
            case K5 -> "k5";
            default -> "index " + index;
        };
    }
}
