// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.security.rxkad;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.rx4j.security.SecurityAbortException;
import org.rx4j.security.rxkad.crypto.RxkadKdf;
import org.rx4j.security.rxkad.handshake.Krb5TicketOpener;
import org.rx4j.security.rxkad.handshake.V4Ticket;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The credential cache, keytab and key files of a throwaway realm and cell (test resources krb5/, made by MIT's
 * kinit/kvno/kadmin and OpenAFS's asetkey; see their README): read with rx4j's readers and cross-checked against
 * each other, since the session key in the cache must be the one inside the ticket the keytab's key opens.
 */
class Krb5FixturesTest {
    private static final HexFormat HEX = HexFormat.of();
    private static final String CELL = "interop.rx4j.test";
    private static final String AES256_KEY = "6b1cb575e648147348444a964aae6e99636e75504db5b84578b5dcbb4037e3cf";
    private static final String AES128_KEY = "53cb62433999f1f2b6abe0a4e403c1b9";

    /** @return the bytes of test resource krb5/NAME.hex (hex, 32 bytes a line: the build lints resources as text) */
    static byte[] fixture(String name) throws IOException {
        try (InputStream in = Krb5FixturesTest.class.getResourceAsStream("krb5/" + name + ".hex")) {
            if (in == null) {
                throw new IOException("test resource krb5/" + name + ".hex is missing");
            }
            return HEX.parseHex(new String(in.readAllBytes(), StandardCharsets.US_ASCII).replaceAll("\\s", ""));
        }
    }

    static CredentialCache cache() throws IOException {
        return CredentialCache.parse(fixture("ccache"));
    }

    static Keytab keytab() throws IOException {
        return Keytab.parse(fixture("afs.keytab"));
    }

    @Test
    void cacheHoldsTheUsersTicketsWithoutConfigEntries() throws IOException {
        CredentialCache c = cache();
        assertEquals(Krb5Principal.parse("rx4juser@RX4J.TEST"), c.defaultPrincipal());
        assertEquals(List.of("krbtgt/RX4J.TEST@RX4J.TEST", "afs/interop.rx4j.test@RX4J.TEST",
                "afs/aes128.rx4j.test@RX4J.TEST"), c.credentials().stream().map(x -> x.server().toString()).toList());
        CredentialCache.Credential afs = c.findAfsTicket(CELL, null).orElseThrow();
        assertEquals(18, afs.keyType());
        assertEquals(32, afs.key().length);
        assertEquals(86400, afs.endtime() - afs.authtime(), "kinit's default life of one day");
        assertTrue(c.findAfsTicket("no.such.cell", null).isEmpty());
        assertTrue(c.findAfsTicket(CELL, "OTHER.REALM").isEmpty());
        String printed = afs.toString() + c;
        assertFalse(printed.contains(HEX.formatHex(afs.key())), "no key in toString");
        assertFalse(printed.contains(HEX.formatHex(Arrays.copyOf(afs.ticket(), 8))), "no ticket in toString");
    }

    @Test
    void keytabAndAsetkeyAgree() throws IOException {
        Keytab k = keytab();
        assertEquals(2, k.entries().size());
        List<ServerKey> afs = k.serverKeys(Krb5Principal.parse("afs/" + CELL + "@RX4J.TEST"));
        assertEquals(List.of(new ServerKey(ServerKey.RXKAD_KRB5, 1, 18, HEX.parseHex(AES256_KEY))), afs);
        assertEquals(List.of(new ServerKey(ServerKey.RXKAD_KRB5, 1, 17, HEX.parseHex(AES128_KEY))),
                k.serverKeys(Krb5Principal.parse("afs/aes128.rx4j.test@RX4J.TEST")));
        assertEquals(afs, KeyFiles.parseKeyFileExt(fixture("KeyFileExt")), "asetkey copied the keytab's key");
        assertFalse((k.entries() + "" + k).contains(AES256_KEY), "no key in toString");
    }

    @Test
    void serverOpensTheKdcsTicketsWithTheKeytab() throws Exception {
        CredentialCache c = cache();
        Krb5TicketOpener opener = new Krb5TicketOpener(ServerKeySource.of(keytab().entries().stream()
                .map(Keytab.Entry::serverKey).toList()));
        for (String service : List.of("afs/" + CELL + "@RX4J.TEST", "afs/aes128.rx4j.test@RX4J.TEST")) {
            CredentialCache.Credential cred = c.credentials().stream()
                    .filter(x -> x.server().toString().equals(service)).findFirst().orElseThrow();
            V4Ticket t = opener.open(Krb5Ticket.KVNO_TICKET, cred.ticket());
            assertEquals("rx4juser", t.name());
            assertEquals("", t.instance());
            assertEquals("RX4J.TEST", t.cell());
            assertEquals(RxkadKdf.derive(cred.key()), t.sessionKey(), "the cache's session key, through rxkad-kdf");
            assertEquals(cred.endtime(), t.end());
            assertEquals(cred.server().components(), List.of(t.serviceName(), t.serviceInstance()));
        }
    }

    @Test
    void credentialsFromTheCacheAreRxkadK5() throws IOException {
        CredentialCache c = cache();
        CredentialCache.Credential afs = c.findAfsTicket(CELL, "RX4J.TEST").orElseThrow();
        RxkadCredentials r = Krb5Credentials.fromCache(c, CELL, null);
        assertEquals(256, r.kvno());
        assertArrayEquals(afs.ticket(), r.ticket());
        assertEquals(RxkadKdf.derive(afs.key()), r.sessionKey().iv());
        assertEquals(afs.endtime(), r.expiry());
        assertEquals("rx4juser@RX4J.TEST", r.principal());
        assertFalse(r.expiredAt(afs.endtime() - 1));
        assertTrue(r.expiredAt(afs.endtime()));
        IOException none = assertThrows(IOException.class, () -> Krb5Credentials.fromCache(c, "other.cell", null));
        assertTrue(none.getMessage().contains("kvno afs/other.cell"), none.getMessage());
        assertFalse(r.toString().contains(HEX.formatHex(Arrays.copyOf(afs.ticket(), 8))));
    }

    @Test
    void wrongMissingOrAlteredKeysAreRefusedWithTheirCodes() throws IOException {
        byte[] ticket = cache().findAfsTicket(CELL, null).orElseThrow().ticket();
        byte[] wrong = HEX.parseHex(AES256_KEY);
        wrong[0] ^= 1;
        SecurityAbortException e = assertThrows(SecurityAbortException.class, () -> new Krb5TicketOpener(
                ServerKeySource.of(List.of(new ServerKey(ServerKey.RXKAD_KRB5, 1, 18, wrong))))
                .open(256, ticket));
        assertEquals(RxkadCodes.RXKADBADTICKET, e.code());
        Krb5TicketOpener right = new Krb5TicketOpener(ServerKeySource.of(keytab().serverKeys(
                Krb5Principal.parse("afs/" + CELL + "@RX4J.TEST"))));
        e = assertThrows(SecurityAbortException.class, () -> new Krb5TicketOpener(ServerKeySource.of(List.of(
                new ServerKey(ServerKey.RXKAD_KRB5, 2, 18, HEX.parseHex(AES256_KEY))))).open(256, ticket));
        assertEquals(RxkadCodes.RXKADUNKNOWNKEY, e.code(), "no key of the ticket's kvno");
        byte[] altered = ticket.clone();
        altered[altered.length - 20] ^= 0x40;
        e = assertThrows(SecurityAbortException.class, () -> right.open(256, altered));
        assertEquals(RxkadCodes.RXKADBADTICKET, e.code());
        e = assertThrows(SecurityAbortException.class, () -> right.open(256, Arrays.copyOf(ticket, 40)));
        assertEquals(RxkadCodes.RXKADBADTICKET, e.code(), "truncated");
        e = assertThrows(SecurityAbortException.class, () -> right.open(213, ticket));
        assertEquals(RxkadCodes.RXKADBADTICKET, e.code(), "a whole Ticket is not a bare EncryptedData");
        String tail = HEX.formatHex(Arrays.copyOfRange(ticket, ticket.length - 8, ticket.length));
        assertFalse(e.getMessage().contains(tail) || e.getMessage().contains(AES256_KEY));
    }

    @Test
    void truncatedOrForeignFilesAreRefused() throws IOException {
        byte[] cc = fixture("ccache");
        IOException e = assertThrows(IOException.class, () -> CredentialCache.parse(Arrays.copyOf(cc, cc.length - 5)));
        assertFalse(e.getMessage().contains(HEX.formatHex(Arrays.copyOfRange(cc, cc.length - 13, cc.length - 5))));
        assertThrows(IOException.class, () -> CredentialCache.parse(fixture("afs.keytab")));
        assertThrows(IOException.class, () -> Keytab.parse(cc));
        byte[] kt = fixture("afs.keytab");
        assertThrows(IOException.class, () -> Keytab.parse(Arrays.copyOf(kt, kt.length - 3)));
        assertEquals(Path.of("/tmp/cc"), CredentialCache.fileOf("FILE:/tmp/cc"));
        assertEquals(Path.of("/tmp/cc"), CredentialCache.fileOf("/tmp/cc"));
        assertThrows(IOException.class, () -> CredentialCache.fileOf("KEYRING:persistent:0"));
    }
}
