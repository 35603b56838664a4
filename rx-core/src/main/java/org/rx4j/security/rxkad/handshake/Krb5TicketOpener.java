// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.security.rxkad.handshake;

import java.io.IOException;
import java.security.GeneralSecurityException;
import java.util.List;
import java.util.Optional;
import org.rx4j.security.SecurityAbortException;
import org.rx4j.security.rxkad.EncTicketPart;
import org.rx4j.security.rxkad.Krb5Principal;
import org.rx4j.security.rxkad.Krb5Ticket;
import org.rx4j.security.rxkad.LocalAuth;
import org.rx4j.security.rxkad.RxkadCodes;
import org.rx4j.security.rxkad.ServerKey;
import org.rx4j.security.rxkad.ServerKeySource;
import org.rx4j.security.rxkad.crypto.Krb5Crypto;
import org.rx4j.security.rxkad.crypto.RxkadKdf;
import org.rx4j.security.rxkad.handshake.V4Ticket;

/**
 * Opens the Kerberos 5 ticket forms of an rxkad RESPONSE on the server side (docs/security.md "Kerberos 5"): kvno
 * 256, a whole DER Ticket (rxkad-k5, what {@code kinit} users send), and kvno 213, a bare EncryptedData (what
 * {@code -localauth} mints from an rxkad_krb5 key). The enc-part is decrypted with the service's rxkad_krb5 key of
 * the kvno and enctype it names ({@link Krb5Crypto}: enctypes 16, 17, 18 and 23), and the client's identity and
 * session key come out in the same form as a v4-style ticket's, for the same checks ({@link V4Ticket#checkTimes}).
 *
 * <p>As OpenAFS: a client name of one component is the name; of two, name and instance; more is a bad ticket, as
 * is a first component containing a dot (it could not be told from a v4 name.instance). The cell is the client's
 * realm. The session key is rxkad-kdf'ed when it is not single DES ({@link RxkadKdf#forEnctype}). A ticket flagged
 * invalid is refused with RXKADNOAUTH. Messages never include the ticket or key bytes.
 */
public final class Krb5TicketOpener {
    private final ServerKeySource keys;

    /**
     * @param keys where the service's rxkad_krb5 keys are
     */
    public Krb5TicketOpener(ServerKeySource keys) {
        this.keys = keys;
    }

    /**
     * @param kvno the RESPONSE's kvno, {@link Krb5Ticket#KVNO_TICKET} or {@link Krb5Ticket#KVNO_ENC_PART_ONLY}
     * @param ticket the ticket bytes
     * @return the client's identity, session key and times; host 0; the service as the ticket names it ({@code
     *     afs} with an empty instance for the 213 form)
     * @throws SecurityAbortException {@link RxkadCodes#RXKADBADTICKET} for a ticket that does not parse, decrypt
     *     or carry a usable name or session key; {@link RxkadCodes#RXKADUNKNOWNKEY} when there is no key of its kvno
     *     and enctype, or its enctype is not one this class decrypts; {@link RxkadCodes#RXKADNOAUTH} if flagged
     *     invalid
     * @throws IllegalArgumentException if {@code kvno} is neither 256 nor 213
     */
    public V4Ticket open(int kvno, byte[] ticket) throws SecurityAbortException {
        Krb5Ticket t;
        try {
            if (kvno == Krb5Ticket.KVNO_TICKET) {
                t = Krb5Ticket.decodeTicket(ticket);
            } else if (kvno == Krb5Ticket.KVNO_ENC_PART_ONLY) {
                t = Krb5Ticket.decodeEncryptedData(ticket);
            } else {
                throw new IllegalArgumentException("kvno " + kvno + " is not a Kerberos 5 ticket form");
            }
        } catch (IOException e) {
            throw bad("does not parse: " + e.getMessage());
        }
        if (!Krb5Crypto.supports(t.etype())) {
            throw new SecurityAbortException(RxkadCodes.RXKADUNKNOWNKEY,
                    "rxkad-k5 ticket of enctype " + t.etype() + " (16, 17, 18 and 23 are decrypted)");
        }
        Optional<ServerKey> key;
        try {
            key = keys.krb5Key(t.kvno(), t.etype());
        } catch (IOException e) {
            throw new SecurityAbortException(RxkadCodes.RXKADUNKNOWNKEY, "server keys unreadable: " + e.getMessage());
        }
        if (key.isEmpty()) {
            throw new SecurityAbortException(RxkadCodes.RXKADUNKNOWNKEY,
                    "no rxkad_krb5 key of kvno " + t.kvno() + " and enctype " + t.etype());
        }
        EncTicketPart part;
        byte[] k = key.get().key();
        try {
            // The first block alone first: a forged ticket of any length is refused for one block's decryption.
            byte[] head = Krb5Crypto.head(t.etype(), k, Krb5Crypto.USAGE_TICKET, t.cipher());
            if (head != null && !EncTicketPart.couldStart(head, Krb5Crypto.plainLength(t.etype(),
                    t.cipher().length))) {
                throw bad("does not decrypt under the key of kvno " + t.kvno() + " (its first block)");
            }
            byte[] plain = Krb5Crypto.decrypt(t.etype(), k, Krb5Crypto.USAGE_TICKET, t.cipher());
            part = EncTicketPart.decode(plain);
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            throw bad("does not decrypt under the key of kvno " + t.kvno());
        } catch (IOException e) {
            throw bad("enc-part does not parse: " + e.getMessage());
        }
        List<String> cname = part.cname();
        if (cname.size() > 2 || cname.get(0).contains(".")) {
            throw bad("client name of " + cname.size() + " components or with a dot is not an AFS name");
        }
        for (String s : List.of(cname.get(0), cname.size() == 2 ? cname.get(1) : "", part.crealm())) {
            if (s.length() > V4Ticket.MAX_NAME || s.indexOf(0) >= 0) {
                throw bad("client name, instance or realm too long or with a NUL");
            }
        }
        long session;
        try {
            session = RxkadKdf.forEnctype(part.keyType(), part.key());
        } catch (IllegalArgumentException e) {
            throw bad("session key of enctype " + part.keyType() + " is unusable");
        }
        if ((part.flags() & EncTicketPart.INVALID) != 0) {
            throw new SecurityAbortException(RxkadCodes.RXKADNOAUTH, "rxkad-k5 ticket is flagged invalid");
        }
        Krb5Principal service = t.service();
        String serviceName = service == null || service.components().isEmpty() ? LocalAuth.SUPERUSER
                : service.components().get(0);
        String serviceInstance = service == null || service.components().size() < 2 ? ""
                : service.components().get(1);
        return new V4Ticket(cname.get(0), cname.size() == 2 ? cname.get(1) : "", part.crealm(), 0, session,
                part.starttime() & 0xffffffffL, part.endtime() & 0xffffffffL, serviceName, serviceInstance);
    }

    private static SecurityAbortException bad(String why) {
        return new SecurityAbortException(RxkadCodes.RXKADBADTICKET, "rxkad-k5 ticket: " + why);
    }

    /** @return the key source */
    @Override
    public String toString() {
        return "Krb5TicketOpener[" + keys + "]";
    }
}
