// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.security.rxkad;

/**
 * The one-byte lifetime of a v4-style ticket (docs/security.md "Tickets"): values below 0x80 count 5-minute
 * intervals; 0x80..0xBF index a fixed table growing by about 7 % per step from 10 h 40 min to 30 days; 0xFF means
 * no expiry. Times are seconds since 1970 as unsigned 32-bit values held in a {@code long}.
 */
public final class TicketLifetime {
    /** The end time of a ticket that never expires. */
    public static final long NEVER = 0xffffffffL;
    /** The longest ticket lifetime, seconds (30 days). */
    public static final int MAX_LIFETIME = 30 * 24 * 3600;
    /** The lifetime byte of a ticket that never expires. */
    public static final int NO_EXPIRY = 0xff;

    private static final int FIRST_FIXED = 0x80;
    private static final int LAST_FIXED = 0xbf;
    private static final int INTERVAL = 5 * 60;
    /** Seconds of lifetime for the bytes 0x80..0xBF. */
    private static final int[] FIXED = {
        38400, 41055, 43894, 46929, 50174, 53643, 57352, 61318,
        65558, 70091, 74937, 80119, 85658, 91581, 97914, 104684,
        111922, 119661, 127935, 136781, 146239, 156350, 167161, 178720,
        191077, 204289, 218415, 233517, 249664, 266926, 285383, 305116,
        326213, 348769, 372885, 398668, 426234, 455705, 487215, 520904,
        556921, 595430, 636601, 680618, 727680, 777995, 831789, 889303,
        950794, 1016537, 1086825, 1161973, 1242318, 1328218, 1420057, 1518247,
        1623226, 1735464, 1855462, 1983758, 2120925, 2267576, 2424367, 2592000
    };

    private TicketLifetime() {
    }

    /**
     * @param start the ticket's start time
     * @param life the lifetime byte, 0..255
     * @return the end time (unsigned 32-bit), {@link #NEVER} for {@link #NO_EXPIRY}
     */
    public static long endTime(long start, int life) {
        int l = life & 0xff;
        if (l == NO_EXPIRY) {
            return NEVER;
        }
        long span;
        if (l < FIRST_FIXED) {
            span = (long) l * INTERVAL;
        } else if (l > LAST_FIXED) {
            span = MAX_LIFETIME;
        } else {
            span = FIXED[l - FIRST_FIXED];
        }
        return (start + span) & 0xffffffffL;
    }

    /**
     * The lifetime byte that covers {@code start..end}: 5-minute intervals rounded up below the table, else the
     * table entry nearest at or above the span.
     *
     * @param start the start time
     * @param end the end time, {@link #NEVER} for no expiry
     * @return the lifetime byte, or 0 if the span is not positive or longer than 30 days
     */
    public static int lifeByte(long start, long end) {
        if (end == NEVER) {
            return NO_EXPIRY;
        }
        long span = end - start;
        if (span <= 0 || span > MAX_LIFETIME) {
            return 0;
        }
        if (span < FIXED[0]) {
            return (int) ((span + INTERVAL - 1) / INTERVAL);
        }
        for (int i = 0; i < FIXED.length; i++) {
            if (FIXED[i] >= span) {
                return FIRST_FIXED + i;
            }
        }
        return 0;
    }
}
