// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.security.rxkad;

import java.io.IOException;

/**
 * The clear parts of a Kerberos 5 ticket as an rxkad RESPONSE carries it (docs/security.md "Kerberos 5"): kvno 256
 * carries a whole DER {@code Ticket} (RFC 4120 section 5.3: tkt-vno 5, the service's realm and name, enc-part), kvno
 * 213 (the "2b" form, what OpenAFS's {@code -localauth} mints from an rxkad_krb5 key) only its {@code
 * EncryptedData}. Immutable; {@link #toString()} leaves out the ciphertext.
 *
 * @param service the service principal a whole Ticket names; null for the "2b" form, which has none
 * @param etype the enctype the enc-part is encrypted with
 * @param kvno the service key version (0 when the ticket leaves it out)
 * @param cipher the encrypted {@code EncTicketPart} (copied)
 */
public record Krb5Ticket(Krb5Principal service, int etype, int kvno, byte[] cipher) {
    /** The RESPONSE kvno of a whole DER Ticket (rxkad-k5). */
    public static final int KVNO_TICKET = 256;
    /** The RESPONSE kvno of a bare EncryptedData (the "2b" form). */
    public static final int KVNO_ENC_PART_ONLY = 213;

    /**
     * @throws NullPointerException if {@code cipher} is null
     */
    public Krb5Ticket {
        cipher = cipher.clone();
    }

    /** @return a copy of the ciphertext */
    @Override
    public byte[] cipher() {
        return cipher.clone();
    }

    /**
     * Decodes a DER Ticket (kvno 256).
     *
     * @param der the encoding
     * @return the enc-part's fields
     * @throws IOException if it is not a DER Ticket of tkt-vno 5
     */
    public static Krb5Ticket decodeTicket(byte[] der) throws IOException {
        Der.Reader t = new Der.Reader(der).open(Der.application(1)).open(Der.SEQUENCE);
        if (t.open(Der.context(0)).integer() != 5) {
            throw new IOException("Kerberos ticket: tkt-vno is not 5");
        }
        String realm = t.open(Der.context(1)).string();
        Krb5Principal sname = new Krb5Principal(realm, Krb5Principal.decodeName(t.open(Der.context(2))));
        return encPart(sname, t.open(Der.context(3)));
    }

    /**
     * Decodes a bare DER EncryptedData (kvno 213).
     *
     * @param der the encoding
     * @return its fields
     * @throws IOException if it is not a DER EncryptedData
     */
    public static Krb5Ticket decodeEncryptedData(byte[] der) throws IOException {
        return encPart(null, new Der.Reader(der));
    }

    private static Krb5Ticket encPart(Krb5Principal service, Der.Reader r) throws IOException {
        Der.Reader s = r.open(Der.SEQUENCE);
        int etype = (int) s.open(Der.context(0)).integer();
        int kvno = s.nextIs(Der.context(1)) ? (int) s.open(Der.context(1)).integer() : 0;
        byte[] cipher = s.open(Der.context(2)).bytes(Der.OCTET_STRING);
        return new Krb5Ticket(service, etype, kvno, cipher);
    }

    /** @return the DER EncryptedData of these fields (the "2b" ticket form) */
    public byte[] encodeEncryptedData() {
        return Der.tlv(Der.SEQUENCE,
                Der.tlv(Der.context(0), Der.integer(etype)),
                Der.tlv(Der.context(1), Der.integer(kvno & 0xffffffffL)),
                Der.tlv(Der.context(2), Der.tlv(Der.OCTET_STRING, cipher)));
    }

    /** @return enctype, kvno and ciphertext length, not the ciphertext */
    @Override
    public String toString() {
        return "Krb5Ticket[" + (service == null ? "no service" : service) + ", etype=" + etype + ", kvno=" + kvno
                + ", " + cipher.length + " cipher bytes]";
    }
}
