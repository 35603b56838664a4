// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.security.rxkad;

import java.util.Map;
import java.util.TreeMap;

/**
 * rxkad's abort codes (the RXK error table, base 19270400), the codes an OpenAFS peer sends or expects in an ABORT
 * when rxkad refuses a connection (docs/security.md "Errors").
 */
public final class RxkadCodes {
    /** Security module state is inconsistent. */
    public static final int RXKADINCONSISTENCY = 19270400;
    /** A CHALLENGE or RESPONSE is shorter than its format. */
    public static final int RXKADPACKETSHORT = 19270401;
    /** Level negotiation failed: the peer's level is below the minimum or not a level. */
    public static final int RXKADLEVELFAIL = 19270402;
    /** The ticket is shorter than 32 or longer than 12,000 bytes. */
    public static final int RXKADTICKETLEN = 19270403;
    /** The RESPONSE answers another CHALLENGE (wrong nonce): a replay. */
    public static final int RXKADOUTOFSEQUENCE = 19270404;
    /** The caller is not authorized. */
    public static final int RXKADNOAUTH = 19270405;
    /** The key is unusable (bad parity or weak). */
    public static final int RXKADBADKEY = 19270406;
    /** The ticket does not decode. */
    public static final int RXKADBADTICKET = 19270407;
    /** The ticket names a key version the server does not have. */
    public static final int RXKADUNKNOWNKEY = 19270408;
    /** The ticket or the connection's authentication has expired. */
    public static final int RXKADEXPIRED = 19270409;
    /** Sealed data is inconsistent: a checksum, the sealed header word or the RESPONSE's endpoint mismatches. */
    public static final int RXKADSEALEDINCON = 19270410;
    /** The sealed user-data length is larger than the packet. */
    public static final int RXKADDATALEN = 19270411;
    /** The caller may not use encrypted connections. */
    public static final int RXKADILLEGALLEVEL = 19270412;

    /** The RXK table's first code (com_err base of the table name {@code rxk}). */
    static final int BASE = RXKADINCONSISTENCY;

    private RxkadCodes() {
    }

    /**
     * @param code an abort code
     * @return a short explanation of an rxkad code in rx4j's words (e.g. {@code "sealed data is inconsistent"}), or
     *     null if it is not an rxkad code
     */
    public static String message(int code) {
        return switch (code) {
            case RXKADINCONSISTENCY -> "security module state is inconsistent";
            case RXKADPACKETSHORT -> "a challenge or response is shorter than its format";
            case RXKADLEVELFAIL -> "security level negotiation failed";
            case RXKADTICKETLEN -> "the ticket is shorter than 32 or longer than 12,000 bytes";
            case RXKADOUTOFSEQUENCE -> "the response answers another challenge";
            case RXKADNOAUTH -> "the caller is not authorized";
            case RXKADBADKEY -> "the key is unusable (bad parity or weak)";
            case RXKADBADTICKET -> "the ticket does not open with the server's key";
            case RXKADUNKNOWNKEY -> "the ticket names a key version the server does not have";
            case RXKADEXPIRED -> "the ticket has expired";
            case RXKADSEALEDINCON -> "sealed data is inconsistent";
            case RXKADDATALEN -> "the sealed data length is larger than the packet";
            case RXKADILLEGALLEVEL -> "the caller may not use encrypted connections";
            default -> null;
        };
    }

    /**
     * The whole table in the shape com_err registries take ({@code RxErrorTables.register("rxk", table())}), so that
     * tools print an rxkad code by name, e.g. {@code RXKADBADTICKET (19270407): ...}.
     *
     * @return code → {@code {name, message}}, for 19270400..19270412; a new map
     */
    public static Map<Integer, String[]> table() {
        Map<Integer, String[]> t = new TreeMap<>();
        for (int code = BASE; code <= RXKADILLEGALLEVEL; code++) {
            t.put(code, new String[] {name(code), message(code)});
        }
        return t;
    }

    /**
     * @param code an abort code
     * @return the rxkad name of {@code code} (e.g. {@code "RXKADSEALEDINCON"}), or null if it is not an rxkad code
     */
    public static String name(int code) {
        return switch (code) {
            case RXKADINCONSISTENCY -> "RXKADINCONSISTENCY";
            case RXKADPACKETSHORT -> "RXKADPACKETSHORT";
            case RXKADLEVELFAIL -> "RXKADLEVELFAIL";
            case RXKADTICKETLEN -> "RXKADTICKETLEN";
            case RXKADOUTOFSEQUENCE -> "RXKADOUTOFSEQUENCE";
            case RXKADNOAUTH -> "RXKADNOAUTH";
            case RXKADBADKEY -> "RXKADBADKEY";
            case RXKADBADTICKET -> "RXKADBADTICKET";
            case RXKADUNKNOWNKEY -> "RXKADUNKNOWNKEY";
            case RXKADEXPIRED -> "RXKADEXPIRED";
            case RXKADSEALEDINCON -> "RXKADSEALEDINCON";
            case RXKADDATALEN -> "RXKADDATALEN";
            case RXKADILLEGALLEVEL -> "RXKADILLEGALLEVEL";
            default -> null;
        };
    }
}
