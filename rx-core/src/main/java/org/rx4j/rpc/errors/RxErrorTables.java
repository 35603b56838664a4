// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc.errors;

import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import org.rx4j.security.rxkad.RxkadCodes;

/**
 * A process-wide registry of com_err error tables (the BZ, VL, PT, U ... tables AFS servers abort calls with), so
 * that {@link RxException}'s message names an application code: {@code VL_NOENT (363524): <message>} instead of
 * {@code error 363524}. rx-gen's generated {@code XxErrors} classes register their table when initialised; call
 * their {@code register()} once (idempotent) before the first call whose errors should print by name
 * (docs/errors.md). The tables rx-core ships are registered from the start: rxkad's ({@code rxk},
 * {@link RxkadCodes#table()}). The Rx and rxgen codes (negative) are named from the wire catalog
 * ({@link RxCodes#name(int)}) and never looked up here.
 *
 * <p>Thread-safe. A table registered again replaces its entries (the same table from two class loaders is harmless:
 * its codes are the same).
 */
public final class RxErrorTables {
    /** code → entry, over every registered table. */
    private static final Map<Integer, Entry> CODES = new ConcurrentHashMap<>();
    /** table name → its code → entry. */
    private static final Map<String, Map<Integer, Entry>> TABLES = new ConcurrentHashMap<>();

    /**
     * One code of a table.
     *
     * @param table the table's name, e.g. {@code VL}
     * @param name the code's name, e.g. {@code VL_NOENT}
     * @param message the table's message for it
     */
    public record Entry(String table, String name, String message) {
        /**
         * @throws NullPointerException if any part is null
         */
        public Entry {
            Objects.requireNonNull(table, "table");
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(message, "message");
        }
    }

    static {
        // The tables rx-core itself ships are named without the application registering them (docs/errors.md).
        register("rxk", RxkadCodes.table());
    }

    private RxErrorTables() {
    }

    /**
     * Registers (or replaces) a table.
     *
     * @param table the table's name as in its {@code .et} file, e.g. {@code VL}
     * @param codes code → {@code {name, message}} (two strings each), as rx-gen's generated classes hold them; copied
     * @throws IllegalArgumentException if an entry is not two strings, or a code is 0 or negative (those are Rx's)
     * @throws NullPointerException if an argument or a string is null
     */
    public static void register(String table, Map<Integer, String[]> codes) {
        Objects.requireNonNull(table, "table");
        Map<Integer, Entry> entries = new ConcurrentHashMap<>();
        codes.forEach((code, nm) -> {
            if (code == null || code <= 0) {
                throw new IllegalArgumentException("table " + table + ": code " + code + " is not an application code");
            }
            if (nm == null || nm.length != 2) {
                throw new IllegalArgumentException("table " + table + ": code " + code + " needs {name, message}");
            }
            entries.put(code, new Entry(table, nm[0], nm[1]));
        });
        Map<Integer, Entry> old = TABLES.put(table, entries);
        if (old != null) {
            old.keySet().forEach(c -> CODES.remove(c, old.get(c)));
        }
        CODES.putAll(entries);
    }

    /**
     * @param code an abort code
     * @return its registered entry, or null when no registered table lists it
     */
    public static Entry lookup(int code) {
        return CODES.get(code);
    }

    /**
     * A code's name: from a registered table for an application's (positive) code, e.g. {@code VL_NOENT}, else the
     * OpenAFS constant name ({@link RxCodes#name}, e.g. {@code RXGEN_OPCODE}), else {@code "error <code>"}.
     *
     * @param code an abort code
     * @return the name
     */
    public static String name(int code) {
        Entry e = code > 0 ? CODES.get(code) : null;
        return e != null ? e.name() : RxCodes.name(code);
    }

    /**
     * Prints a code for humans: {@code RXGEN_OPCODE (-455)} for an Rx or rxgen code, {@code VL_NOENT (363524):
     * <message>} for a code of a registered table, {@code error <code>} otherwise.
     *
     * @param code an abort code
     * @return the description
     */
    public static String describe(int code) {
        String name = RxCodes.name(code);
        if (!name.startsWith("error ")) {
            return name + " (" + code + ")";
        }
        Entry e = CODES.get(code);
        return e == null ? name : e.name() + " (" + code + "): " + e.message();
    }
}
