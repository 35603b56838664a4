// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.security.rxkad;

import java.io.IOException;
import java.nio.file.Path;
import org.rx4j.security.rxkad.crypto.RxkadKdf;

/**
 * rxkad-k5 client credentials from a Kerberos 5 credential cache (docs/security.md "Credentials"): the AFS service
 * ticket {@code kinit} plus {@code kvno afs/CELL} (or aklog) put there. The RESPONSE carries the DER Ticket as it is
 * with kvno 256; the session key is the ticket's own if it is single DES, else rxkad-kdf of it
 * ({@link RxkadKdf#forEnctype}).
 */
public final class Krb5Credentials {
    private Krb5Credentials() {
    }

    /**
     * @param cache a credential cache
     * @param cell the AFS cell, as in {@code afs/CELL@REALM}
     * @param realm the Kerberos realm; null for the cache's default principal's
     * @return the credentials of the cache's AFS ticket for the cell ({@link CredentialCache#findAfsTicket})
     * @throws IOException if the cache holds no such ticket
     * @throws IllegalArgumentException if the ticket is longer than rxkad carries (12,000 bytes) or its session key's
     *     enctype cannot give an rxkad key
     */
    public static RxkadCredentials fromCache(CredentialCache cache, String cell, String realm) throws IOException {
        CredentialCache.Credential c = cache.findAfsTicket(cell, realm).orElseThrow(() -> new IOException(
                "the credential cache of " + cache.defaultPrincipal() + " holds no afs/" + cell + " or afs ticket"
                        + " (get one with: kvno afs/" + cell + ")"));
        return fromCredential(c);
    }

    /**
     * @param file a credential cache file
     * @param cell the AFS cell
     * @param realm the Kerberos realm; null for the cache's default principal's
     * @return as {@link #fromCache}
     * @throws IOException if the file cannot be read, is malformed or holds no such ticket
     */
    public static RxkadCredentials fromCache(Path file, String cell, String realm) throws IOException {
        return fromCache(CredentialCache.read(file), cell, realm);
    }

    /**
     * @param c a service ticket and its session key
     * @return rxkad credentials carrying it with kvno 256, expiring at its end time
     * @throws IllegalArgumentException as {@link #fromCache(CredentialCache, String, String)}
     */
    public static RxkadCredentials fromCredential(CredentialCache.Credential c) {
        long key = RxkadKdf.forEnctype(c.keyType(), c.key());
        return new RxkadCredentials(new SessionKey(key), Krb5Ticket.KVNO_TICKET, c.ticket(), c.endtime(),
                c.client().toString());
    }
}
