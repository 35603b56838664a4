// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.security.rxkad;

import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.rx4j.security.rxkad.handshake.Krb5TicketOpener;
import org.rx4j.security.rxkad.handshake.V4Ticket;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * rx4j's credential readers on the files of a live throwaway realm and cell (scripts/interop.sh, section auth): the
 * ccache {@code kinit} and {@code kvno} wrote, the realm's keytab, and the server directory {@code asetkey} filled.
 * Skipped unless the section passes their paths as system properties {@code rx4j.krb5.ccache}, {@code
 * rx4j.krb5.keytab}, {@code rx4j.krb5.cell} and {@code rx4j.afs.serverdir}.
 */
class Krb5InteropTest {
    private static String property(String name) {
        String v = System.getProperty(name);
        assumeTrue(v != null && !v.isEmpty(), name + " is not set (scripts/interop.sh auth sets it)");
        return v;
    }

    @Test
    void theCachesAfsTicketOpensWithTheKeytabsKey() throws Exception {
        String cell = property("rx4j.krb5.cell");
        CredentialCache cache = CredentialCache.read(Path.of(property("rx4j.krb5.ccache")));
        Keytab keytab = Keytab.read(Path.of(property("rx4j.krb5.keytab")));
        CredentialCache.Credential afs = cache.findAfsTicket(cell, null).orElseThrow();
        RxkadCredentials creds = Krb5Credentials.fromCache(cache, cell, null);
        List<ServerKey> keys = keytab.serverKeys(afs.server());
        V4Ticket t = new Krb5TicketOpener(ServerKeySource.of(keys)).open(creds.kvno(), creds.ticket());
        assertEquals(cache.defaultPrincipal().components().get(0), t.name());
        assertEquals(cache.defaultPrincipal().realm(), t.cell());
        assertEquals(creds.sessionKey().iv(), t.sessionKey());
        t.checkTimes(System.currentTimeMillis() / 1000);
    }

    @Test
    void theCellsKeyFileExtOpensItToo() throws Exception {
        String cell = property("rx4j.krb5.cell");
        RxkadCredentials creds = Krb5Credentials.fromCache(Path.of(property("rx4j.krb5.ccache")), cell, null);
        KeyDirectory dir = new KeyDirectory(Path.of(property("rx4j.afs.serverdir")));
        V4Ticket t = new Krb5TicketOpener(dir).open(creds.kvno(), creds.ticket());
        assertEquals(creds.sessionKey().iv(), t.sessionKey());
    }

    @Test
    void localAuthFromTheCellsKeysOpensWithThem() throws Exception {
        Path serverDir = Path.of(property("rx4j.afs.serverdir"));
        RxkadCredentials creds = LocalAuth.fromDirectory(serverDir, new SecureRandom());
        assertEquals(Krb5Ticket.KVNO_ENC_PART_ONLY, creds.kvno(), "the cell has an rxkad_krb5 key: the 2b form");
        V4Ticket t = new Krb5TicketOpener(new KeyDirectory(serverDir)).open(creds.kvno(), creds.ticket());
        assertEquals(LocalAuth.SUPERUSER, t.name());
        assertEquals(creds.sessionKey().iv(), t.sessionKey());
    }
}
