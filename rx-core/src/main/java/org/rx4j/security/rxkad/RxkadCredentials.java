// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.security.rxkad;

import java.util.Arrays;
import org.rx4j.security.rxkad.handshake.RxkadResponse;

/**
 * What an rxkad client authenticates with (docs/security.md "Credentials"): the session key, the ticket the server
 * opens and its key version, when it expires and whom it names. Made by {@link LocalAuth} (from a server's keys, as
 * OpenAFS's {@code -localauth}) or {@link Krb5Credentials} (from a Kerberos 5 credential cache). Immutable; the
 * session key and ticket never appear in {@link #toString()}.
 *
 * @param sessionKey the rxkad session key
 * @param kvno the RESPONSE's kvno: 0..255 a v4-style ticket, 213 the "2b" form, 256 a DER Kerberos 5 Ticket
 * @param ticket the ticket, 32..12,000 bytes (copied)
 * @param expiry when the ticket expires, seconds since 1970; {@link TicketLifetime#NEVER} if it does not
 * @param principal whom the ticket names, e.g. {@code afs} or {@code user@REALM}, for logs
 */
public record RxkadCredentials(SessionKey sessionKey, int kvno, byte[] ticket, long expiry, String principal) {
    /**
     * @throws NullPointerException if an argument is null
     * @throws IllegalArgumentException if the ticket length is outside 32..12,000 or the kvno outside 0..256
     */
    public RxkadCredentials {
        if (sessionKey == null || principal == null) {
            throw new NullPointerException("session key and principal must not be null");
        }
        ticket = ticket.clone();
        if (ticket.length < RxkadResponse.MIN_TICKET || ticket.length > RxkadResponse.MAX_TICKET) {
            throw new IllegalArgumentException("ticket of " + ticket.length + " bytes is outside 32..12000");
        }
        if (kvno < 0 || kvno > Krb5Ticket.KVNO_TICKET) {
            throw new IllegalArgumentException("kvno " + kvno + " is outside 0..256");
        }
    }

    /** @return a copy of the ticket */
    @Override
    public byte[] ticket() {
        return ticket.clone();
    }

    /**
     * @param now seconds since 1970
     * @return whether the ticket has expired at {@code now} (a connection using it should be replaced)
     */
    public boolean expiredAt(long now) {
        return expiry != TicketLifetime.NEVER && now >= expiry;
    }

    /** @return whether {@code o} holds the same key, kvno, ticket, expiry and principal */
    @Override
    public boolean equals(Object o) {
        return o instanceof RxkadCredentials c && c.sessionKey.iv() == sessionKey.iv() && c.kvno == kvno
                && Arrays.equals(c.ticket, ticket) && c.expiry == expiry && c.principal.equals(principal);
    }

    /** @return a hash of kvno, expiry and principal */
    @Override
    public int hashCode() {
        return (kvno * 31 + Long.hashCode(expiry)) * 31 + principal.hashCode();
    }

    /** @return principal, kvno, expiry and ticket length; not the key or ticket */
    @Override
    public String toString() {
        return "RxkadCredentials[" + principal + ", kvno=" + kvno + ", expiry=" + expiry + ", " + ticket.length
                + "-byte ticket]";
    }
}
