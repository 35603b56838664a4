// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.security.rxkad;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;

/**
 * The few DER (ITU-T X.690) forms Kerberos 5 tickets use (RFC 4120 section 5): definite lengths up to 4 bytes,
 * INTEGER, OCTET STRING, BIT STRING, GeneralString, GeneralizedTime, SEQUENCE and tagged wrappers. Reading never
 * trusts a length beyond the enclosing value; malformed input is an {@link IOException} that names the fault,
 * never the bytes.
 */
final class Der {
    /** Universal tag numbers, as whole identifier bytes. */
    static final int INTEGER = 0x02;
    static final int BIT_STRING = 0x03;
    static final int OCTET_STRING = 0x04;
    static final int GENERALIZED_TIME = 0x18;
    static final int GENERAL_STRING = 0x1b;
    static final int SEQUENCE = 0x30;

    private static final DateTimeFormatter KERBEROS_TIME = DateTimeFormatter.ofPattern("yyyyMMddHHmmss'Z'");

    private Der() {
    }

    /** @return the identifier byte of context-specific constructed tag {@code [n]} */
    static int context(int n) {
        return 0xa0 | n;
    }

    /** @return the identifier byte of application constructed tag {@code [APPLICATION n]} */
    static int application(int n) {
        return 0x60 | n;
    }

    /** Reads the values inside one DER value (or a whole buffer), in order. */
    static final class Reader {
        private final byte[] b;
        private final int end;
        private int pos;

        /** @param b the encoding; read whole */
        Reader(byte[] b) {
            this(b, 0, b.length);
        }

        private Reader(byte[] b, int pos, int end) {
            this.b = b;
            this.pos = pos;
            this.end = end;
        }

        /** @return whether values remain */
        boolean hasMore() {
            return pos < end;
        }

        /** @return whether the next value has identifier {@code tag} */
        boolean nextIs(int tag) {
            return pos < end && (b[pos] & 0xff) == tag;
        }

        /**
         * Reads the next value, which must have identifier {@code tag}.
         *
         * @return a reader over its contents
         * @throws IOException if the next value has another tag or its length runs past the enclosing value
         */
        Reader open(int tag) throws IOException {
            if (!nextIs(tag)) {
                throw new IOException(String.format("DER: expected tag 0x%02x at %d", tag, pos));
            }
            pos++;
            if (pos >= end) {
                throw new IOException("DER: length missing");
            }
            int first = b[pos++] & 0xff;
            long len;
            if (first < 0x80) {
                len = first;
            } else {
                int n = first & 0x7f;
                if (n == 0 || n > 4 || end - pos < n) {
                    throw new IOException("DER: unsupported length form");
                }
                len = 0;
                for (int i = 0; i < n; i++) {
                    len = (len << 8) | (b[pos++] & 0xff);
                }
            }
            if (len > end - pos) {
                throw new IOException("DER: value of " + len + " bytes runs past its container");
            }
            Reader inner = new Reader(b, pos, pos + (int) len);
            pos += (int) len;
            return inner;
        }

        /** @return the contents of the next value, which has identifier {@code tag} */
        byte[] bytes(int tag) throws IOException {
            Reader r = open(tag);
            byte[] out = new byte[r.end - r.pos];
            System.arraycopy(b, r.pos, out, 0, out.length);
            return out;
        }

        /** @return the next INTEGER, which must fit 64 bits */
        long integer() throws IOException {
            byte[] v = bytes(INTEGER);
            if (v.length == 0 || v.length > 8) {
                throw new IOException("DER: INTEGER of " + v.length + " bytes");
            }
            long x = v[0]; // sign-extended
            for (int i = 1; i < v.length; i++) {
                x = (x << 8) | (v[i] & 0xff);
            }
            return x;
        }

        /** @return the next GeneralString, as UTF-8 (Kerberos names are ASCII in practice) */
        String string() throws IOException {
            return new String(bytes(GENERAL_STRING), StandardCharsets.UTF_8);
        }

        /** @return the next GeneralizedTime in Kerberos' form (YYYYMMDDHHMMSSZ) as seconds since 1970 */
        long time() throws IOException {
            String s = new String(bytes(GENERALIZED_TIME), StandardCharsets.US_ASCII);
            try {
                return LocalDateTime.parse(s, KERBEROS_TIME).toEpochSecond(ZoneOffset.UTC);
            } catch (DateTimeParseException e) {
                throw new IOException("DER: KerberosTime is not YYYYMMDDHHMMSSZ", e);
            }
        }
    }

    /** @return the encoding of one value: {@code tag}, definite length, then the parts' bytes in order */
    static byte[] tlv(int tag, byte[]... parts) {
        int len = 0;
        for (byte[] p : parts) {
            len += p.length;
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(len + 6);
        out.write(tag);
        if (len < 0x80) {
            out.write(len);
        } else {
            int n = len < 0x100 ? 1 : len < 0x10000 ? 2 : len < 0x1000000 ? 3 : 4;
            out.write(0x80 | n);
            for (int i = n - 1; i >= 0; i--) {
                out.write(len >>> (8 * i));
            }
        }
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }

    /** @return the INTEGER {@code v} in its shortest two's-complement form */
    static byte[] integer(long v) {
        int n = 8;
        while (n > 1 && (v >> (8 * n - 9)) == (v >> 63)) {
            n--;
        }
        byte[] c = new byte[n];
        for (int i = 0; i < n; i++) {
            c[i] = (byte) (v >>> (8 * (n - 1 - i)));
        }
        return tlv(INTEGER, c);
    }

    /** @return the GeneralString {@code s} */
    static byte[] string(String s) {
        return tlv(GENERAL_STRING, s.getBytes(StandardCharsets.UTF_8));
    }

    /** @return {@code t} (seconds since 1970) as a KerberosTime GeneralizedTime */
    static byte[] time(long t) {
        String s = LocalDateTime.ofEpochSecond(t, 0, ZoneOffset.UTC).format(KERBEROS_TIME);
        return tlv(GENERALIZED_TIME, s.getBytes(StandardCharsets.US_ASCII));
    }
}
