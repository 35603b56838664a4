// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.security.rxkad.handshake;

import java.io.IOException;
import java.util.Optional;
import org.rx4j.security.SecurityAbortException;
import org.rx4j.security.rxkad.Krb5Ticket;
import org.rx4j.security.rxkad.RxkadCodes;
import org.rx4j.security.rxkad.ServerKey;
import org.rx4j.security.rxkad.ServerKeySource;
import org.rx4j.security.rxkad.crypto.Blocks;
import org.rx4j.security.rxkad.handshake.V4Ticket;

/**
 * What an rxkad server does with the ticket of a RESPONSE (docs/security.md "Tickets", "Kerberos 5"): by the kvno,
 * a v4-style ticket sealed with the DES key of that version (0..255) or a Kerberos 5 form (256, 213) opened with an
 * rxkad_krb5 key, then the times checked against {@code now} with 15 minutes of skew ({@link V4Ticket#checkTimes}).
 * Thread-safe when its key source is.
 */
public final class TicketOpener {
    private final ServerKeySource keys;
    private final Krb5TicketOpener krb5;

    /**
     * @param keys the server's keys
     */
    public TicketOpener(ServerKeySource keys) {
        this.keys = keys;
        this.krb5 = new Krb5TicketOpener(keys);
    }

    /**
     * @param kvno the RESPONSE's kvno
     * @param ticket the RESPONSE's ticket
     * @param now seconds since 1970
     * @return the client's identity, session key and times
     * @throws SecurityAbortException {@link RxkadCodes#RXKADUNKNOWNKEY} when the server has no key of the ticket's
     *     version (or its keys cannot be read); {@link RxkadCodes#RXKADBADTICKET} for a kvno above 256 other than
     *     the forms above, or a ticket that does not open; the codes of {@link V4Ticket#unseal},
     *     {@link Krb5TicketOpener#open} and {@link V4Ticket#checkTimes}
     */
    public V4Ticket open(int kvno, byte[] ticket, long now) throws SecurityAbortException {
        V4Ticket t;
        if (kvno == Krb5Ticket.KVNO_TICKET || kvno == Krb5Ticket.KVNO_ENC_PART_ONLY) {
            t = krb5.open(kvno, ticket);
        } else if (kvno >= 0 && kvno <= 255) {
            V4Ticket.checkLength(ticket.length); // before the key lookup and any DES work
            Optional<ServerKey> key;
            try {
                key = keys.desKey(kvno);
            } catch (IOException e) {
                throw new SecurityAbortException(RxkadCodes.RXKADUNKNOWNKEY, "server keys unreadable: "
                        + e.getMessage());
            }
            if (key.isEmpty() || key.get().key().length != 8) {
                throw new SecurityAbortException(RxkadCodes.RXKADUNKNOWNKEY, "no DES key of kvno " + kvno);
            }
            t = V4Ticket.unseal(ticket, Blocks.get(key.get().key(), 0));
        } else {
            throw new SecurityAbortException(RxkadCodes.RXKADBADTICKET, "rxkad ticket kvno " + kvno
                    + " is no known ticket form");
        }
        t.checkTimes(now);
        return t;
    }

    /** @return the key source */
    @Override
    public String toString() {
        return "TicketOpener[" + keys + "]";
    }
}
