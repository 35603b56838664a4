// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.security.rxkad;

import java.io.IOException;
import java.util.List;

/**
 * The parts of a Kerberos 5 {@code EncTicketPart} (RFC 4120 section 5.3) rxkad uses: the session key, the client's
 * realm and name, and the times (docs/security.md "Kerberos 5"). Immutable; the key never appears in
 * {@link #toString()}.
 *
 * @param flags the TicketFlags bits, bit 0 (the first bit of the BIT STRING) in the high bit
 * @param keyType the session key's enctype
 * @param key the session key bytes (copied)
 * @param crealm the client's realm
 * @param cname the client's name components, one or more
 * @param authtime seconds since 1970
 * @param starttime seconds since 1970; {@code authtime} when the ticket leaves it out
 * @param endtime seconds since 1970
 */
public record EncTicketPart(int flags, int keyType, byte[] key, String crealm, List<String> cname, long authtime,
                            long starttime, long endtime) {
    /** TicketFlags bit "invalid" (bit 7). */
    public static final int INVALID = 1 << (31 - 7);
    /** TicketFlags bit "transited-policy-checked" (bit 12). */
    public static final int TRANSITED_POLICY_CHECKED = 1 << (31 - 12);
    /** PrincipalName name-type NT-PRINCIPAL. */
    private static final int NT_PRINCIPAL = 1;

    /**
     * @throws NullPointerException if an argument is null
     * @throws IllegalArgumentException if {@code cname} is empty
     */
    public EncTicketPart {
        key = key.clone();
        cname = List.copyOf(cname);
        if (crealm == null) {
            throw new NullPointerException("crealm");
        }
        if (cname.isEmpty()) {
            throw new IllegalArgumentException("a client name needs a component");
        }
    }

    /** @return a copy of the session key */
    @Override
    public byte[] key() {
        return key.clone();
    }

    /**
     * @param der a decrypted EncTicketPart
     * @return its fields
     * @throws IOException if it is malformed
     */
    public static EncTicketPart decode(byte[] der) throws IOException {
        Der.Reader s = new Der.Reader(der).open(Der.application(3)).open(Der.SEQUENCE);
        byte[] bits = s.open(Der.context(0)).bytes(Der.BIT_STRING);
        int flags = 0;
        for (int i = 1; i < Math.min(bits.length, 5); i++) {
            flags |= (bits[i] & 0xff) << (8 * (4 - i));
        }
        Der.Reader k = s.open(Der.context(1)).open(Der.SEQUENCE);
        int keyType = (int) k.open(Der.context(0)).integer();
        byte[] key = k.open(Der.context(1)).bytes(Der.OCTET_STRING);
        String crealm = s.open(Der.context(2)).string();
        List<String> cname = Krb5Principal.decodeName(s.open(Der.context(3)));
        if (cname.isEmpty()) {
            throw new IOException("EncTicketPart: client name without components");
        }
        s.open(Der.context(4));
        long authtime = s.open(Der.context(5)).time();
        long starttime = s.nextIs(Der.context(6)) ? s.open(Der.context(6)).time() : authtime;
        long endtime = s.open(Der.context(7)).time();
        return new EncTicketPart(flags, keyType, key, crealm, cname, authtime, starttime, endtime);
    }

    /**
     * Whether {@code head}, the first bytes of a decrypted enc-part of {@code length} bytes in all, can begin what
     * {@link #decode} accepts: [APPLICATION 3] and SEQUENCE, each with a length form it reads and a length within
     * its container, then [0]. A check on the unauthenticated first block ({@code Krb5Crypto.head}): it refuses
     * only what {@code decode} would refuse too, and a forged ciphertext passes it with a probability below
     * 2<sup>-24</sup> (three tag bytes, besides the two lengths bounded by the ticket's).
     *
     * @param head the plaintext's first bytes, at least 13 to check everything (fewer: what is there)
     * @param length the plaintext's length after the confounder, bytes
     * @return false if {@code decode} would refuse any plaintext that starts with {@code head}
     */
    public static boolean couldStart(byte[] head, int length) {
        int[] tags = {Der.application(3), Der.SEQUENCE, Der.context(0)};
        int pos = 0;
        long end = length;
        for (int t = 0; t < tags.length; t++) {
            if (pos >= head.length) {
                return true;
            }
            if (pos >= end || (head[pos] & 0xff) != tags[t]) {
                return false;
            }
            if (t == tags.length - 1) {
                return true;
            }
            pos++;
            if (pos >= end) {
                return false;
            }
            if (pos >= head.length) {
                return true;
            }
            int first = head[pos++] & 0xff;
            long len = first;
            if (first >= 0x80) {
                int n = first & 0x7f;
                if (n == 0 || n > 4 || end - pos < n) {
                    return false;
                }
                if (pos + n > head.length) {
                    return true;
                }
                len = 0;
                for (int i = 0; i < n; i++) {
                    len = (len << 8) | (head[pos++] & 0xff);
                }
            }
            if (len > end - pos) {
                return false;
            }
            end = pos + len;
        }
        return true;
    }

    /**
     * @return the DER EncTicketPart: flags, key, crealm, cname (NT-PRINCIPAL), an empty transited encoding,
     *     authtime, endtime (starttime is left out when it equals authtime)
     */
    public byte[] encode() {
        byte[] flagBits = {0, (byte) (flags >>> 24), (byte) (flags >>> 16), (byte) (flags >>> 8), (byte) flags};
        byte[][] names = new byte[cname.size()][];
        for (int i = 0; i < names.length; i++) {
            names[i] = Der.string(cname.get(i));
        }
        byte[] name = Der.tlv(Der.SEQUENCE, Der.tlv(Der.context(0), Der.integer(NT_PRINCIPAL)),
                Der.tlv(Der.context(1), Der.tlv(Der.SEQUENCE, names)));
        byte[] transited = Der.tlv(Der.SEQUENCE, Der.tlv(Der.context(0), Der.integer(0)),
                Der.tlv(Der.context(1), Der.tlv(Der.OCTET_STRING)));
        byte[] start = starttime == authtime ? new byte[0] : Der.tlv(Der.context(6), Der.time(starttime));
        return Der.tlv(Der.application(3), Der.tlv(Der.SEQUENCE,
                Der.tlv(Der.context(0), Der.tlv(Der.BIT_STRING, flagBits)),
                Der.tlv(Der.context(1), Der.tlv(Der.SEQUENCE, Der.tlv(Der.context(0), Der.integer(keyType)),
                        Der.tlv(Der.context(1), Der.tlv(Der.OCTET_STRING, key)))),
                Der.tlv(Der.context(2), Der.string(crealm)),
                Der.tlv(Der.context(3), name),
                Der.tlv(Der.context(4), transited),
                Der.tlv(Der.context(5), Der.time(authtime)),
                start,
                Der.tlv(Der.context(7), Der.time(endtime))));
    }

    /** @return the client, realm and times, not the key */
    @Override
    public String toString() {
        return "EncTicketPart[" + String.join("/", cname) + "@" + crealm + ", keyType=" + keyType + ", authtime="
                + authtime + ", starttime=" + starttime + ", endtime=" + endtime + "]";
    }
}
