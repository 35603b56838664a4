// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.afs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.rx4j.afs.bozo.BozoClient;
import org.rx4j.afs.bozo.BozoListKeysResult;
import org.rx4j.afs.bozo.BzErrors;
import org.rx4j.afs.pt.PrClient;
import org.rx4j.afs.pt.Prcheckentry;
import org.rx4j.afs.vl.Nvldbentry;
import org.rx4j.afs.vl.VlClient;
import org.rx4j.afs.vl.VlConstants;
import org.rx4j.afs.vl.Vldbentry;
import org.rx4j.rpc.RxEndpoint;
import org.rx4j.rpc.debug.ConnectionInfo;
import org.rx4j.rpc.debug.RxDebugClient;
import org.rx4j.rpc.errors.RxException;
import org.rx4j.security.SecurityStats;
import org.rx4j.security.rxkad.Krb5Credentials;
import org.rx4j.security.rxkad.LocalAuth;
import org.rx4j.security.rxkad.RxkadClientSecurity;
import org.rx4j.security.rxkad.RxkadCredentials;
import org.rx4j.security.rxkad.RxkadLevel;

/**
 * rx4j's rxkad client against the real bosserver, vlserver and ptserver of the authenticated interop cell (started
 * WITHOUT -noauth by scripts/interop/authcell.sh; docs/interop.md, docs/security.md "How it is tested"), each answer
 * compared with what Debian's {@code bos}, {@code vos} and {@code pts} print for the same server, and each level
 * proven on the server's side: Debian's {@code rxdebug -allconnections} must list this test's connection (by its UDP
 * port) at security index 2 and the expected rxkad level, so a silent fall back to rxnull fails.
 *
 * <p>Skipped unless {@code -Drx4j.auth.server=ADDR}. scripts/interop.sh (section auth) runs it through Maven in the
 * client namespace with the cell's server directory mounted over /etc/openafs/server, where {@code -localauth} (of
 * rx4j and of Debian's tools) finds the keys, with:
 * <ul>
 *   <li>{@code rx4j.auth.server}: the database and bos host (bosserver 7007, vlserver 7003, ptserver 7002);
 *   <li>{@code rx4j.auth.client}: this host's address as the servers see it;
 *   <li>{@code rx4j.auth.serverdir}: the server directory (default /etc/openafs/server);
 *   <li>{@code rx4j.auth.deskey}: {@code KVNO:HEX}, the DES key asetkey added;
 *   <li>{@code rx4j.auth.ccache}: kinit's credential cache holding the afs/CELL service ticket;
 *   <li>{@code rx4j.auth.cell}: the cell (default interop.rx4j.test).
 * </ul>
 * The methods run in order: the volume entry and user the third creates are read by the fourth.
 */
@Timeout(120)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RxkadClientInteropTest {
    private static final Duration DEADLINE = Duration.ofSeconds(30);
    private static final String VOLUME = "rx4j.auth";
    private static final int VOLUME_ID = 536_871_001;
    private static final String USER = "rx4juser";
    private static final String NEW_SUSER = "rx4jadmin";
    /** A file server the entry names, 10.99.0.7 (the VLDB only records it). */
    private static final int FILE_SERVER_ADDRESS = 10 << 24 | 99 << 16 | 7;

    private static String server;
    private static String client;
    private static Path serverDir;
    private static String cell;

    private RxEndpoint endpoint;

    @BeforeAll
    static void properties() {
        server = System.getProperty("rx4j.auth.server", "");
        assumeTrue(!server.isBlank(), "no authenticated cell given (-Drx4j.auth.server=10.99.0.1)");
        client = System.getProperty("rx4j.auth.client", "");
        assertFalse(client.isBlank(), "-Drx4j.auth.client=ADDR (this host as the servers see it) is required");
        serverDir = Path.of(System.getProperty("rx4j.auth.serverdir", "/etc/openafs/server"));
        cell = System.getProperty("rx4j.auth.cell", "interop.rx4j.test");
    }

    @AfterEach
    void close() {
        if (endpoint != null) {
            endpoint.close();
        }
    }

    /** A fresh endpoint, so this case's connections are the ones from its UDP port. */
    private RxEndpoint endpoint() throws IOException {
        endpoint = RxEndpoint.builder().bind(new InetSocketAddress(0)).open();
        return endpoint;
    }

    private static InetSocketAddress at(int port) throws IOException {
        return new InetSocketAddress(InetAddress.getByName(server), port);
    }

    private static RxkadClientSecurity rxkad(RxkadCredentials c, RxkadLevel level) {
        return new RxkadClientSecurity(level, c.sessionKey(), c.kvno(), c.ticket());
    }

    private void assertServerSees(int serverPort, String level) throws Exception {
        OpenAfsCommands.assertRxkadLevel(OpenAfsCommands.rxdebugConnections(server, serverPort), client,
                endpoint.localAddress().getPort(), level);
    }

    /** The bos tool with -localauth against the real bosserver. */
    private static List<String> bos(String... args) throws Exception {
        return OpenAfsCommands.bosLocalauth(server, args);
    }

    /** BOZO_ListKeys at crypt: the key bytes asetkey added (bosserver sends them only to a crypt connection). */
    @Test
    @Order(1)
    void listKeysAtCryptReturnsTheKeyAsetkeyAdded() throws Exception {
        String[] des = System.getProperty("rx4j.auth.deskey", "3:0123456789abcdef").split(":");
        RxkadCredentials local = LocalAuth.fromDirectory(serverDir, new SecureRandom());
        BozoClient bos = BozoClient.connect(endpoint(), at(7007), 1, rxkad(local, RxkadLevel.CRYPT));
        BozoListKeysResult key = bos.listKeys(0, DEADLINE);
        assertEquals(Integer.parseInt(des[0]), key.kvno());
        assertArrayEquals(HexFormat.of().parseHex(des[1]), key.key().data(), "the real key bytes");
        RxException end = assertThrows(RxException.class, () -> bos.listKeys(1, DEADLINE));
        assertEquals(BzErrors.BZDOM, end.code(), end.getMessage());
        assertServerSees(7007, "crypt");
        assertTrue(bos("listkeys").contains("key " + key.kvno() + " has cksum "
                + Integer.toUnsignedString(key.keyinfo().keyCheckSum())), "bos listkeys prints rx4j's checksum");
    }

    /** BOZO_AddSUser (superusers only), then BOZO_ListSUsers: the list bos listusers prints. */
    @Test
    @Order(2)
    void addSUserThenListSUsersAsBosListusersPrintsThem() throws Exception {
        RxkadCredentials local = LocalAuth.fromDirectory(serverDir, new SecureRandom());
        BozoClient bos = BozoClient.connect(endpoint(), at(7007), 1, rxkad(local, RxkadLevel.CRYPT));
        bos.addSUser(NEW_SUSER, DEADLINE);
        List<String> users = new ArrayList<>();
        for (int i = 0; ; i++) {
            try {
                users.add(bos.listSUsers(i, DEADLINE));
            } catch (RxException e) {
                assertEquals(1, e.code(), "bosserver ends the list with code 1: " + e.getMessage());
                break;
            }
        }
        assertTrue(users.contains(NEW_SUSER), users.toString());
        assertServerSees(7007, "crypt");
        assertEquals(List.of("SUsers are: " + String.join(" ", users)), bos("listusers"));
    }

    /**
     * VL_CreateEntry and PR_NewEntry (both for superusers only) at crypt with -localauth credentials, then read back
     * as {@code vos listvldb -localauth -encrypt} and {@code pts examine -localauth} print them; rx4j's own
     * rxdebug client reads the same level from the vlserver's listing.
     */
    @Test
    @Order(3)
    void vlAndPrCallsAtCryptAsVosAndPtsPrintThem() throws Exception {
        RxkadCredentials local = LocalAuth.fromDirectory(serverDir, new SecureRandom());
        RxEndpoint e = endpoint();
        VlClient vl = VlClient.connect(e, at(7003), 52, rxkad(local, RxkadLevel.CRYPT));
        PrClient pr = PrClient.connect(e, at(7002), 73, rxkad(local, RxkadLevel.CRYPT));
        List<Integer> site = sites(FILE_SERVER_ADDRESS);
        List<Integer> partition = sites(0);
        List<Integer> flags = sites(VlConstants.VLSF_RWVOL);
        vl.createEntry(new Vldbentry(VOLUME, 0, 1, site, partition, flags, List.of(VOLUME_ID, 0, 0), 0,
                VlConstants.VLF_RWEXISTS), DEADLINE);
        assertEquals(vosEntry(), mine(vl.getEntryByNameN(VOLUME, DEADLINE)));
        int id = pr.newEntry(USER, 0, 0, DEADLINE);
        assertEquals(ptsExamine(), mine(pr, pr.listEntry(id, DEADLINE)));
        assertServerSees(7003, "crypt");
        assertServerSees(7002, "crypt");
        try (RxDebugClient debug = RxDebugClient.open(server, 7003)) {
            SecurityStats seen = null;
            for (int i = 0; seen == null; i++) {
                ConnectionInfo c = debug.connection(i, true).orElseThrow();
                if (c.port() == e.localAddress().getPort()) {
                    seen = c.security();
                }
            }
            assertEquals(SecurityStats.TYPE_RXKAD, seen.type(), "rx4j's rxdebug reads OpenAFS's rxkad statistics");
            assertEquals(RxkadLevel.CRYPT.wire(), seen.level());
            assertTrue((seen.flags() & SecurityStats.FLAG_AUTHENTICATED) != 0, seen.toString());
        }
    }

    /**
     * rxkad-k5: kinit's afs/CELL ticket (kvno 256, session key through rxkad-kdf) from the credential cache, the
     * ptserver at crypt and the vlserver at auth: PR_NameToID and PR_ListEntry of the user as Debian's
     * {@code pts examine} prints it, VL_GetEntryByNameN as {@code vos listvldb}.
     */
    @Test
    @Order(4)
    void kinitCredentialsReadTheUserAsPtsExaminePrintsIt() throws Exception {
        String ccache = System.getProperty("rx4j.auth.ccache", "");
        assertFalse(ccache.isBlank(), "-Drx4j.auth.ccache=FILE (kinit's credential cache) is required");
        RxkadCredentials k5 = Krb5Credentials.fromCache(Path.of(ccache), cell, null);
        assertEquals(256, k5.kvno());
        RxEndpoint e = endpoint();
        PrClient pr = PrClient.connect(e, at(7002), 73, rxkad(k5, RxkadLevel.CRYPT));
        VlClient vl = VlClient.connect(e, at(7003), 52, rxkad(k5, RxkadLevel.AUTH));
        int id = pr.nameToID(List.of(USER), DEADLINE).get(0);
        assertEquals(ptsExamine(), mine(pr, pr.listEntry(id, DEADLINE)));
        assertEquals(vosEntry(), mine(vl.getEntryByNameN(VOLUME, DEADLINE)));
        assertServerSees(7002, "crypt");
        assertServerSees(7003, "auth");
    }

    /** One site's value, then the unused sites' zeros: VL_CreateEntry's fixed-size arrays. */
    private static List<Integer> sites(int first) {
        List<Integer> out = new ArrayList<>(List.of(first));
        while (out.size() < VlConstants.OMAXNSERVERS) {
            out.add(0);
        }
        return out;
    }

    /** The entry's lines as vos listvldb -name -noresolve prints them (its one site is a read-write one). */
    private static List<String> mine(Nvldbentry entry) {
        int a = entry.serverNumber().get(0);
        return List.of(entry.name(), "RWrite: " + Integer.toUnsignedString(entry.volumeId().get(0)),
                "number of sites -> " + entry.nServers(), "server " + (a >>> 24) + "." + (a >>> 16 & 0xff) + "."
                        + (a >>> 8 & 0xff) + "." + (a & 0xff) + " partition /vicepa RW Site");
    }

    private static List<String> vosEntry() throws Exception {
        return OpenAfsCommands.run("vos", "listvldb", "-name", VOLUME, "-server", server, "-localauth", "-encrypt",
                "-noresolve").stream().map(String::strip).filter(l -> !l.isEmpty()).toList();
    }

    /** The first line of pts examine: name, id, owner and creator (the names through PR_IDToName). */
    private static String mine(PrClient pr, Prcheckentry entry) throws IOException {
        List<String> names = pr.idToName(List.of(entry.owner(), entry.creator()), DEADLINE);
        return "Name: " + entry.name() + ", id: " + entry.id() + ", owner: " + names.get(0) + ", creator: "
                + names.get(1) + ",";
    }

    private static String ptsExamine() throws Exception {
        return OpenAfsCommands.run("pts", "examine", "-nameorid", USER, "-localauth").get(0);
    }
}
