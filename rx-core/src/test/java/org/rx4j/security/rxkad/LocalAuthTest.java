// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.security.rxkad;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rx4j.security.SecurityAbortException;
import org.rx4j.security.rxkad.crypto.RxkadKdf;
import org.rx4j.security.rxkad.handshake.Krb5TicketOpener;
import org.rx4j.security.rxkad.handshake.TicketOpener;
import org.rx4j.security.rxkad.handshake.V4Ticket;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Local credentials from a server's keys, the key choice OpenAFS makes, and the tickets a server opens. */
class LocalAuthTest {
    private static final HexFormat HEX = HexFormat.of();
    private static final long DES_KEY = 0x0123456789abcdefL;

    private static SecureRandom random() {
        SecureRandom r = new SecureRandom();
        r.setSeed(42);
        return r;
    }

    private static List<ServerKey> fixtureKeys() throws IOException {
        List<ServerKey> keys = new ArrayList<>(KeyFiles.parseKeyFile(Krb5FixturesTest.fixture("KeyFile")));
        keys.addAll(KeyFiles.parseKeyFileExt(Krb5FixturesTest.fixture("KeyFileExt")));
        return keys;
    }

    @Test
    void desKeyMintsAV4TicketForAfs() throws Exception {
        List<ServerKey> des = KeyFiles.parseKeyFile(Krb5FixturesTest.fixture("KeyFile"));
        RxkadCredentials c = LocalAuth.fromKeys(des, random());
        assertEquals(3, c.kvno());
        assertEquals(TicketLifetime.NEVER, c.expiry());
        assertFalse(c.expiredAt(Long.MAX_VALUE));
        V4Ticket t = V4Ticket.unseal(c.ticket(), DES_KEY);
        assertEquals(new V4Ticket("afs", "", "", 0, c.sessionKey().iv(), 0, TicketLifetime.NEVER, "afs", ""), t);
        t.checkTimes(1_764_669_600L);
        assertEquals(c.sessionKey().iv(), RxkadKdf.withOddParity(c.sessionKey().iv()), "odd parity");
        assertFalse(c.toString().contains(Long.toHexString(c.sessionKey().iv())));
    }

    @Test
    void krb5KeyIsPreferredAndMintsThe2bFormTheServerOpens() throws Exception {
        List<ServerKey> keys = fixtureKeys();
        RxkadCredentials c = LocalAuth.fromKeys(keys, random());
        assertEquals(213, c.kvno());
        assertEquals(0x7fffffffL, c.expiry());
        Krb5Ticket outer = Krb5Ticket.decodeEncryptedData(c.ticket());
        assertEquals(18, outer.etype());
        assertEquals(1, outer.kvno());
        V4Ticket t = new Krb5TicketOpener(ServerKeySource.of(keys)).open(213, c.ticket());
        assertEquals("afs", t.name());
        assertEquals("", t.instance());
        assertEquals("", t.cell());
        assertEquals(c.sessionKey().iv(), t.sessionKey(), "a DES-CBC-CRC session key is used as it is");
        assertEquals(0, t.start());
        assertEquals(0x7fffffffL, t.end());
        t.checkTimes(1_764_669_600L);
    }

    @Test
    void theHighestKvnoWinsAndWithinItTheEnctypePreference() throws IOException {
        ServerKey k17v5 = new ServerKey(ServerKey.RXKAD_KRB5, 5, 17, new byte[16]);
        ServerKey k18v5 = new ServerKey(ServerKey.RXKAD_KRB5, 5, 18, new byte[32]);
        ServerKey k18v4 = new ServerKey(ServerKey.RXKAD_KRB5, 4, 18, new byte[32]);
        ServerKey k20v6 = new ServerKey(ServerKey.RXKAD_KRB5, 6, 20, new byte[32]);
        assertEquals(k18v5, LocalAuth.latestKrb5(List.of(k17v5, k18v4, k18v5)).orElseThrow());
        assertEquals(k17v5, LocalAuth.latestKrb5(List.of(k17v5, k18v4)).orElseThrow());
        assertTrue(LocalAuth.latestKrb5(List.of(k18v4, k20v6)).isEmpty(),
                "the newest kvno has no preferred enctype: no rxkad_krb5 key, as OpenAFS");
        ServerKey des7 = new ServerKey(ServerKey.RXKAD, 7, 0, HEX.parseHex("0123456789abcdef"));
        ServerKey des999 = new ServerKey(ServerKey.RXKAD, 999, 0, HEX.parseHex("fedcba9876543210"));
        assertEquals(7, LocalAuth.fromKeys(List.of(des7, des999, k20v6), random()).kvno(), "999 is skipped");
        ServerKey rc4 = new ServerKey(ServerKey.RXKAD_KRB5, 9, 23, new byte[16]);
        ServerKey des3 = new ServerKey(ServerKey.RXKAD_KRB5, 9, 16, new byte[24]);
        assertEquals(rc4, LocalAuth.latestKrb5(List.of(des3, rc4, k18v4)).orElseThrow(), "23 before 16");
        assertEquals(des3, LocalAuth.latestKrb5(List.of(des3, k18v4)).orElseThrow());
        IOException e = assertThrows(IOException.class, () -> LocalAuth.fromKeys(List.of(
                new ServerKey(ServerKey.RXKAD_KRB5, 9, 18, new byte[16]), des7), random()));
        assertTrue(e.getMessage().contains("kvno 9 does not fit"), e.getMessage());
        assertThrows(IOException.class, () -> LocalAuth.fromKeys(List.of(des999), random()));
    }

    @Test
    void theServerOpensEveryFormByItsKvnoAndChecksTimes() throws Exception {
        List<ServerKey> keys = fixtureKeys();
        TicketOpener opener = new TicketOpener(ServerKeySource.of(keys));
        long now = 1_764_669_600L;
        RxkadCredentials k5 = LocalAuth.fromKeys(keys, random());
        assertEquals(k5.sessionKey().iv(), opener.open(213, k5.ticket(), now).sessionKey());
        RxkadCredentials des = LocalAuth.fromKeys(KeyFiles.parseKeyFile(Krb5FixturesTest.fixture("KeyFile")),
                random());
        assertEquals(des.sessionKey().iv(), opener.open(3, des.ticket(), now).sessionKey());
        CredentialCache.Credential afs = Krb5FixturesTest.cache().findAfsTicket("interop.rx4j.test", null)
                .orElseThrow();
        assertEquals("rx4juser", opener.open(256, afs.ticket(), afs.authtime()).name());
        assertEquals(RxkadCodes.RXKADEXPIRED, assertThrows(SecurityAbortException.class,
                () -> opener.open(256, afs.ticket(), afs.endtime() + 16 * 60)).code());
        assertEquals(RxkadCodes.RXKADNOAUTH, assertThrows(SecurityAbortException.class,
                () -> opener.open(256, afs.ticket(), afs.authtime() - 16 * 60)).code());
        assertEquals(RxkadCodes.RXKADUNKNOWNKEY, assertThrows(SecurityAbortException.class,
                () -> opener.open(4, des.ticket(), now)).code());
        assertEquals(RxkadCodes.RXKADBADTICKET, assertThrows(SecurityAbortException.class,
                () -> opener.open(300, des.ticket(), now)).code());
        assertEquals(RxkadCodes.RXKADUNKNOWNKEY, assertThrows(SecurityAbortException.class,
                () -> new TicketOpener(ServerKeySource.of(List.of())).open(256, afs.ticket(), now)).code());
    }

    @Test
    void rc4AndDes3KeysMintTicketsTheServerOpens() throws Exception {
        ServerKey rc4 = new ServerKey(ServerKey.RXKAD_KRB5, 2, 23, HEX.parseHex("000102030405060708090a0b0c0d0e0f"));
        ServerKey des3 = new ServerKey(ServerKey.RXKAD_KRB5, 2, 16,
                HEX.parseHex("0123456789abcdeffedcba98765432100123456789abcdef"));
        for (ServerKey k : List.of(rc4, des3)) {
            RxkadCredentials c = LocalAuth.fromKeys(List.of(k), random());
            assertEquals(k.subType(), Krb5Ticket.decodeEncryptedData(c.ticket()).etype());
            V4Ticket t = new Krb5TicketOpener(ServerKeySource.of(List.of(k))).open(213, c.ticket());
            assertEquals(c.sessionKey().iv(), t.sessionKey(), "enctype " + k.subType());
            assertEquals("afs", t.name());
        }
    }

    @Test
    void sessionKeysDiffer() throws IOException {
        List<ServerKey> keys = fixtureKeys();
        SecureRandom r = random();
        assertNotEquals(LocalAuth.fromKeys(keys, r).sessionKey().iv(), LocalAuth.fromKeys(keys, r).sessionKey().iv());
    }

    @Test
    void keyDirectoryRereadsAChangedFile(@TempDir Path dir) throws IOException {
        KeyDirectory d = new KeyDirectory(dir);
        assertEquals(List.of(), d.keys(), "no key files: no keys");
        Files.write(dir.resolve("KeyFile"), Krb5FixturesTest.fixture("KeyFile"));
        assertEquals(List.of(3), d.keys().stream().map(ServerKey::kvno).toList());
        Files.write(dir.resolve("KeyFileExt"), Krb5FixturesTest.fixture("KeyFileExt"));
        assertEquals(List.of(3, 1), d.keys().stream().map(ServerKey::kvno).toList());
        assertTrue(d.krb5Key(1, 18).isPresent());
        assertTrue(d.krb5Key(1, 17).isEmpty());
        assertTrue(d.desKey(3).isPresent());
        // Same size, new contents and modification time (asetkey replacing kvno 3 by kvno 4).
        Files.write(dir.resolve("KeyFile"), HEX.parseHex("00000001" + "00000004" + "fedcba9876543210"));
        Path keyFile = dir.resolve("KeyFile");
        Files.setLastModifiedTime(keyFile, FileTime.from(Files.getLastModifiedTime(keyFile).toInstant()
                .plusSeconds(1)));
        assertEquals(List.of(4, 1), d.keys().stream().map(ServerKey::kvno).toList());
        Files.delete(dir.resolve("KeyFileExt"));
        assertEquals(List.of(4), d.keys().stream().map(ServerKey::kvno).toList());
        assertThrows(SecurityAbortException.class, () -> new Krb5TicketOpener(d)
                .open(213, LocalAuth.fromKeys(fixtureKeys(), random()).ticket()), "a removed key opens nothing");
    }

    /** A missing or empty configuration directory, and a missing credential cache, name the path they looked at. */
    @Test
    void missingKeysAndCachesNameThePath(@TempDir Path dir) throws Exception {
        Path none = dir.resolve("no-such-dir");
        IOException missing = assertThrows(IOException.class, () -> LocalAuth.fromDirectory(none, random()));
        assertEquals("server configuration directory " + none + ": no such directory", missing.getMessage());
        IOException empty = assertThrows(IOException.class, () -> LocalAuth.fromDirectory(dir, random()));
        assertEquals("server configuration directory " + dir + " holds neither KeyFile nor KeyFileExt",
                empty.getMessage());
        Files.write(dir.resolve("KeyFile"), new byte[] {0, 0, 0, 0});
        IOException noKey = assertThrows(IOException.class, () -> LocalAuth.fromDirectory(dir, random()));
        assertTrue(noKey.getMessage().startsWith("server configuration directory " + dir + ": "), noKey.getMessage());
        Path cache = dir.resolve("krb5cc_none");
        IOException noCache = assertThrows(IOException.class, () -> CredentialCache.read(cache));
        assertEquals("credential cache " + cache + ": no such file", noCache.getMessage());
    }
}
