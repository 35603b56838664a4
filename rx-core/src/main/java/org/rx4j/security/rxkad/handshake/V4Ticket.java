// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.security.rxkad.handshake;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import org.rx4j.security.SecurityAbortException;
import org.rx4j.security.rxkad.RxkadCodes;
import org.rx4j.security.rxkad.TicketLifetime;
import org.rx4j.security.rxkad.crypto.DesPcbc;
import org.rx4j.security.rxkad.crypto.RxkadKdf;

/**
 * A v4-style rxkad ticket (kvno 0..255; docs/security.md "Tickets"): who the client is, its session key and the
 * ticket's life, sealed with the server's DES key. This is what OpenAFS's {@code -localauth} mints from a KeyFile
 * key. Immutable; the session key never appears in {@link #toString()}.
 *
 * <p>Plaintext layout: a flags byte (0, or bit 0 set if the integers are little-endian), the client's name,
 * instance and cell as NUL-terminated strings, the client's IPv4 address (4 bytes), the session key (8), the
 * lifetime byte ({@link TicketLifetime}), the start time (4), then the service's name and instance as NUL-terminated
 * strings; zero-padded to a multiple of 8 bytes and sealed in DES PCBC with the server key as key and IV. Names are
 * at most 63 bytes; the client and service names at least 1.
 *
 * @param name the client's name, 1..63 bytes in UTF-8
 * @param instance the client's instance, 0..63 bytes
 * @param cell the client's cell (realm), 0..63 bytes; empty for the server's own cell
 * @param host the client's IPv4 address as an int (0 if not bound to an address)
 * @param sessionKey the session key as a big-endian long
 * @param start the start time, seconds since 1970 (unsigned 32-bit)
 * @param end the end time as the lifetime byte gives it ({@link TicketLifetime#endTime})
 * @param serviceName the service's name, usually {@code "afs"}
 * @param serviceInstance the service's instance, often empty
 */
public record V4Ticket(String name, String instance, String cell, int host, long sessionKey, long start, long end,
                       String serviceName, String serviceInstance) {
    /** Longest name, instance or cell, bytes (without the NUL). */
    public static final int MAX_NAME = 63;
    /**
     * Longest sealed v4-style ticket the format allows, bytes: the flags byte, five names of at most 63 bytes with
     * their NULs, the address, session key, lifetime byte and start time (1 + 5 × 64 + 17 = 338), rounded up to 8.
     * A longer one cannot open, so it is refused before any decryption (a forged RESPONSE then costs no DES work:
     * docs/robustness.md "Rule: a forged RESPONSE is cheap").
     */
    public static final int MAX_SEALED = 344;

    /**
     * @throws NullPointerException if a string is null
     */
    public V4Ticket {
        if (name == null || instance == null || cell == null || serviceName == null || serviceInstance == null) {
            throw new NullPointerException("ticket names must not be null");
        }
    }

    /**
     * Seals the ticket with the server key.
     *
     * @param serverKey the service's DES key (KeyFile) as a big-endian long
     * @return the sealed ticket, a multiple of 8 bytes, at least 32
     * @throws IllegalArgumentException if the server key lacks DES odd parity or is weak (OpenAFS refuses such
     *     keys too), a name is too long or too short or holds a NUL, or the life from start to end is not positive
     *     or longer than 30 days
     */
    public byte[] seal(long serverKey) {
        if (!usableDesKey(serverKey)) {
            throw new IllegalArgumentException("server key lacks DES odd parity or is a weak DES key");
        }
        int life = TicketLifetime.lifeByte(start, end);
        if (life == 0) {
            throw new IllegalArgumentException("ticket life from " + start + " to " + end + " is not 1 s..30 days");
        }
        ByteArrayOutputStream b = new ByteArrayOutputStream(64);
        b.write(0);
        putString(b, name, 1);
        putString(b, instance, 0);
        putString(b, cell, 0);
        putInt(b, host);
        putInt(b, (int) (sessionKey >>> 32));
        putInt(b, (int) sessionKey);
        b.write(life);
        putInt(b, (int) start);
        putString(b, serviceName, 1);
        putString(b, serviceInstance, 0);
        int padded = (b.size() + 7) & -8;
        byte[] t = new byte[Math.max(padded, RxkadResponse.MIN_TICKET)];
        System.arraycopy(b.toByteArray(), 0, t, 0, b.size());
        DesPcbc.apply(serverKey, t, true);
        return t;
    }

    /**
     * Opens a sealed ticket. Does not check its times; see {@link #checkTimes}.
     *
     * @param ticket the sealed ticket
     * @param serverKey the DES key of the ticket's kvno, as a big-endian long
     * @return the ticket
     * @throws SecurityAbortException {@link RxkadCodes#RXKADBADKEY} if the server key lacks DES odd parity or is
     *     weak; {@link RxkadCodes#RXKADBADTICKET} if the length is not a multiple of 8 in
     *     32..{@value #MAX_SEALED} (checked first, before the key), or the plaintext does not parse (wrong key,
     *     altered or not a v4-style ticket)
     */
    public static V4Ticket unseal(byte[] ticket, long serverKey) throws SecurityAbortException {
        checkLength(ticket.length);
        if (!usableDesKey(serverKey)) {
            throw new SecurityAbortException(RxkadCodes.RXKADBADKEY,
                    "rxkad server key lacks DES odd parity or is a weak DES key");
        }
        int n = ticket.length;
        byte[] t = ticket.clone();
        DesPcbc.apply(serverKey, t, false);
        Reader r = new Reader(t);
        boolean littleEndian = (r.u8() & 1) != 0;
        String name = r.string(1);
        String instance = r.string(0);
        String cell = r.string(0);
        int host = r.int32(littleEndian);
        long session = ((long) r.int32(false) << 32) | (r.int32(false) & 0xffffffffL);
        int life = r.u8();
        long start = r.int32(littleEndian) & 0xffffffffL;
        String serviceName = r.string(1);
        String serviceInstance = r.string(0);
        // As OpenAFS: the ticket is exactly its plaintext rounded up to 8, or 56 bytes (old fixed-size tickets).
        if (((r.pos + 7) & -8) != n && n != 56) {
            throw bad("length " + n + " does not fit its contents");
        }
        return new V4Ticket(name, instance, cell, host, session, start, TicketLifetime.endTime(start, life),
                serviceName, serviceInstance);
    }

    /**
     * Refuses a sealed length no v4-style ticket has, without looking at its bytes.
     *
     * @param n the sealed ticket's length, bytes
     * @throws SecurityAbortException {@link RxkadCodes#RXKADBADTICKET} unless {@code n} is a multiple of 8 in
     *     32..{@value #MAX_SEALED}
     */
    public static void checkLength(int n) throws SecurityAbortException {
        if (n < RxkadResponse.MIN_TICKET || n > MAX_SEALED || (n & 7) != 0) {
            throw bad("length " + n + " is not a multiple of 8 in 32.." + MAX_SEALED);
        }
    }

    /**
     * Checks the ticket's times against {@code now}, with 15 minutes of allowed clock skew (OpenAFS's rules).
     *
     * @param now seconds since 1970
     * @throws SecurityAbortException {@link RxkadCodes#RXKADNOAUTH} if the ticket starts in the future;
     *     {@link RxkadCodes#RXKADEXPIRED} if it expired recently; {@link RxkadCodes#RXKADBADTICKET} if its times are
     *     inconsistent, too long or long expired
     */
    public void checkTimes(long now) throws SecurityAbortException {
        final long skew = 15 * 60;
        final long max = TicketLifetime.MAX_LIFETIME;
        if (start >= end || start > now + skew + max || (start != 0 && end != TicketLifetime.NEVER
                && end - start > max)) {
            throw bad("times are inconsistent");
        }
        if (end != TicketLifetime.NEVER && end + skew < now) {
            if (start != 0 && now - start > max + 24 * 3600) {
                throw bad("expired long ago");
            }
            throw new SecurityAbortException(RxkadCodes.RXKADEXPIRED, "rxkad ticket has expired");
        }
        if (start != 0 && start - skew > now) {
            throw new SecurityAbortException(RxkadCodes.RXKADNOAUTH, "rxkad ticket is not valid yet");
        }
    }

    /** @return the ticket without its session key */
    @Override
    public String toString() {
        return "V4Ticket[" + name + (instance.isEmpty() ? "" : "." + instance) + "@" + cell + ", service "
                + serviceName + (serviceInstance.isEmpty() ? "" : "." + serviceInstance) + ", start " + start
                + ", end " + end + "]";
    }

    /** DES keys must have odd parity and not be weak, as OpenAFS's DES key schedule insists. */
    private static boolean usableDesKey(long key) {
        return RxkadKdf.withOddParity(key) == key && !RxkadKdf.isWeak(key);
    }

    private static SecurityAbortException bad(String why) {
        return new SecurityAbortException(RxkadCodes.RXKADBADTICKET, "rxkad ticket: " + why);
    }

    private static void putString(ByteArrayOutputStream b, String s, int min) {
        byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
        if (bytes.length < min || bytes.length > MAX_NAME) {
            throw new IllegalArgumentException("ticket name of " + bytes.length + " bytes is not " + min + "..63");
        }
        for (byte x : bytes) {
            if (x == 0) {
                throw new IllegalArgumentException("ticket name holds a NUL");
            }
        }
        b.writeBytes(bytes);
        b.write(0);
    }

    private static void putInt(ByteArrayOutputStream b, int v) {
        b.write(v >>> 24);
        b.write(v >>> 16);
        b.write(v >>> 8);
        b.write(v);
    }

    /** Reads the plaintext; every overrun or malformed string is a bad ticket. */
    private static final class Reader {
        private final byte[] t;
        private int pos;

        Reader(byte[] t) {
            this.t = t;
        }

        int u8() throws SecurityAbortException {
            if (pos >= t.length) {
                throw bad("ends early");
            }
            return t[pos++] & 0xff;
        }

        int int32(boolean littleEndian) throws SecurityAbortException {
            int v = 0;
            for (int i = 0; i < 4; i++) {
                int x = u8();
                v = littleEndian ? v | (x << (8 * i)) : (v << 8) | x;
            }
            return v;
        }

        String string(int min) throws SecurityAbortException {
            int begin = pos;
            while (pos < t.length && t[pos] != 0) {
                pos++;
            }
            int len = pos - begin;
            if (pos >= t.length || len < min || len > MAX_NAME) {
                throw bad("a name is malformed");
            }
            pos++;
            return new String(t, begin, len, StandardCharsets.UTF_8);
        }
    }
}
