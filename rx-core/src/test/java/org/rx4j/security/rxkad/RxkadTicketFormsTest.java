// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.security.rxkad;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.rx4j.rpc.RxConnection;
import org.rx4j.rpc.RxEndpoint;
import org.rx4j.rpc.RxService;
import org.rx4j.rpc.debug.ConnectionInfo;
import org.rx4j.rpc.debug.RxDebugClient;
import org.rx4j.rpc.errors.RxException;
import org.rx4j.security.CallerIdentity;
import org.rx4j.security.SecurityStats;
import org.rx4j.testing.LeakCheckExtension;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * An rx4j rxkad server accepts every ticket form by its kvno (docs/security.md "Tickets", "Kerberos 5"), over real
 * UDP on loopback: a v4-style ticket sealed with a KeyFile DES key, the "2b" form (kvno 213) {@code -localauth} mints
 * from a KeyFileExt rxkad_krb5 key, and a kinit ticket (kvno 256, rxkad-k5 with rxkad-kdf) from a credential cache,
 * with the keys read by {@link KeyDirectory} or given in code; a form whose key the server lacks is refused with
 * RXKADUNKNOWNKEY before the handler. The key files and cache are the throwaway fixtures of test resources krb5/.
 */
@Timeout(60)
@ExtendWith(LeakCheckExtension.class)
class RxkadTicketFormsTest {
    private static final int SERVICE = 733;
    private static final String CELL = "interop.rx4j.test";

    private RxEndpoint server;
    private RxEndpoint client;
    private final AtomicReference<CallerIdentity> seen = new AtomicReference<>();

    @AfterEach
    void stop() {
        if (client != null) {
            client.close();
        }
        if (server != null) {
            server.close();
        }
    }

    private static byte[] fixture(String name) throws IOException {
        try (InputStream in = RxkadTicketFormsTest.class.getResourceAsStream(
                "/org/rx4j/security/rxkad/krb5/" + name + ".hex")) {
            if (in == null) {
                throw new IOException("test resource krb5/" + name + ".hex is missing");
            }
            return HexFormat.of().parseHex(new String(in.readAllBytes(), StandardCharsets.US_ASCII)
                    .replaceAll("\\s", ""));
        }
    }

    /** A server directory holding the fixtures' KeyFile (DES kvno 3) and KeyFileExt (rxkad_krb5 kvno 1, 18). */
    private static Path serverDir(Path dir) throws IOException {
        Files.write(dir.resolve("KeyFile"), fixture("KeyFile"));
        Files.write(dir.resolve("KeyFileExt"), fixture("KeyFileExt"));
        return dir;
    }

    /** The fixture ccache's afs ticket, whose life began when the fixtures were made. */
    private static CredentialCache.Credential afsTicket() throws IOException {
        return CredentialCache.parse(fixture("ccache")).findAfsTicket(CELL, null).orElseThrow();
    }

    /** Starts a server whose clock is {@code clock}; its handler replies with the caller's principal. */
    private void start(ServerKeySource keys, LongSupplier clock) throws IOException {
        server = RxEndpoint.builder().bind(new InetSocketAddress("127.0.0.1", 0)).open();
        server.registerService(RxService.builder(SERVICE)
                .securityClass(new RxkadServerSecurity(keys, RxkadLevel.CLEAR, clock, new Random(3)))
                .wholeStream(call -> {
                    call.input().readAllBytes();
                    CallerIdentity who = call.identity().orElseThrow();
                    seen.set(who);
                    call.output().write(who.principal().getBytes(StandardCharsets.UTF_8));
                }).build());
        client = RxEndpoint.builder().bind(new InetSocketAddress("127.0.0.1", 0)).open();
    }

    private CallerIdentity call(RxkadCredentials c, RxkadLevel level) throws IOException {
        RxConnection conn = client.connect(server.localAddress(), SERVICE,
                new RxkadClientSecurity(level, c.sessionKey(), c.kvno(), c.ticket()));
        byte[] reply = conn.call(new byte[300]);
        CallerIdentity who = seen.getAndSet(null);
        assertEquals(who.principal(), new String(reply, StandardCharsets.UTF_8));
        assertEquals(level.wire(), who.level());
        return who;
    }

    @Test
    void aKeyDirectoryOpensV4And2bLocalTicketsAndKinitTickets(@TempDir Path dir) throws Exception {
        Path keys = serverDir(dir);
        CredentialCache.Credential afs = afsTicket();
        AtomicLong clock = new AtomicLong(afs.authtime() + 60);
        start(new KeyDirectory(keys), clock::get);

        RxkadCredentials local2b = LocalAuth.fromDirectory(keys, new SecureRandom());
        assertEquals(213, local2b.kvno(), "with an rxkad_krb5 key, -localauth mints the 2b form");
        CallerIdentity who = call(local2b, RxkadLevel.CRYPT);
        assertEquals(List.of(LocalAuth.SUPERUSER, "", ""), List.of(who.principal(), who.instance(), who.cell()));

        RxkadCredentials v4 = LocalAuth.fromKeys(KeyFiles.readKeyFile(keys.resolve("KeyFile")), new SecureRandom());
        assertEquals(3, v4.kvno(), "a v4-style ticket under the DES key of kvno 3");
        assertEquals(LocalAuth.SUPERUSER, call(v4, RxkadLevel.AUTH).principal());

        RxkadCredentials k5 = Krb5Credentials.fromCredential(afs);
        assertEquals(256, k5.kvno());
        who = call(k5, RxkadLevel.CLEAR);
        assertEquals(List.of("rx4juser", "", "RX4J.TEST"), List.of(who.principal(), who.instance(), who.cell()));
        assertEquals(afs.endtime(), who.expiresAtEpochSecond());

        // rxdebug's view of the kinit connection (the one at clear): its ticket's end, then expired past it.
        clock.set(afs.endtime() + 1);
        try (RxDebugClient debug = RxDebugClient.open("127.0.0.1", server.localAddress().getPort())) {
            SecurityStats k5Stats = null;
            for (int i = 0; k5Stats == null; i++) {
                ConnectionInfo c = debug.connection(i, true).orElseThrow();
                if (c.serverConnection() && c.security().level() == RxkadLevel.CLEAR.wire()) {
                    k5Stats = c.security();
                }
            }
            assertEquals(afs.endtime(), k5Stats.expires());
            assertEquals(SecurityStats.FLAG_AUTHENTICATED | SecurityStats.FLAG_PACKET_CHECKSUM
                    | SecurityStats.FLAG_EXPIRED, k5Stats.flags());
        }
    }

    @Test
    void keysGivenInCodeOpenWhatTheyHoldAndRefuseTheRest(@TempDir Path dir) throws Exception {
        Path keys = serverDir(dir);
        List<ServerKey> desOnly = KeyFiles.readKeyFile(keys.resolve("KeyFile"));
        CredentialCache.Credential afs = afsTicket();
        server = RxEndpoint.builder().bind(new InetSocketAddress("127.0.0.1", 0)).open();
        // The List constructor: the wall clock, fine for the minted tickets that never end.
        server.registerService(RxService.builder(SERVICE)
                .securityClass(new RxkadServerSecurity(desOnly, RxkadLevel.CLEAR)).wholeStream(call -> {
            call.input().readAllBytes();
            seen.set(call.identity().orElseThrow());
            call.output().write(seen.get().principal().getBytes(StandardCharsets.UTF_8));
        }).build());
        client = RxEndpoint.builder().bind(new InetSocketAddress("127.0.0.1", 0)).open();

        assertEquals(LocalAuth.SUPERUSER, call(LocalAuth.fromKeys(desOnly, new SecureRandom()), RxkadLevel.CRYPT)
                .principal());

        List<ServerKey> all = new ArrayList<>(desOnly);
        all.addAll(KeyFiles.readKeyFileExt(keys.resolve("KeyFileExt")));
        for (RxkadCredentials c : List.of(LocalAuth.fromKeys(all, new SecureRandom()),
                Krb5Credentials.fromCredential(afs))) {
            RxConnection conn = client.connect(server.localAddress(), SERVICE,
                    new RxkadClientSecurity(RxkadLevel.CLEAR, c.sessionKey(), c.kvno(), c.ticket()));
            RxException e = assertThrows(RxException.class, () -> conn.call(new byte[10]));
            assertEquals(RxkadCodes.RXKADUNKNOWNKEY, e.code(), "kvno " + c.kvno() + " without an rxkad_krb5 key");
            assertNull(seen.get(), "no call reached the handler");
        }
    }

    @Test
    void aKinitTicketPastItsEndIsRefusedAsExpired(@TempDir Path dir) throws Exception {
        CredentialCache.Credential afs = afsTicket();
        start(new KeyDirectory(serverDir(dir)), () -> afs.endtime() + 15 * 60 + 1);
        RxkadCredentials k5 = Krb5Credentials.fromCredential(afs);
        RxConnection conn = client.connect(server.localAddress(), SERVICE,
                new RxkadClientSecurity(RxkadLevel.CRYPT, k5.sessionKey(), k5.kvno(), k5.ticket()));
        RxException e = assertThrows(RxException.class, () -> conn.call(new byte[10]));
        assertEquals(RxkadCodes.RXKADEXPIRED, e.code());
        assertNull(seen.get());
    }
}
