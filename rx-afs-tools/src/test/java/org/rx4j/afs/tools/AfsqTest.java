// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.afs.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.reflect.Proxy;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.rx4j.afs.pt.PrDispatcher;
import org.rx4j.afs.pt.PrServer;
import org.rx4j.afs.vl.Nvldbentry;
import org.rx4j.afs.vl.VlConstants;
import org.rx4j.afs.vl.VlDispatcher;
import org.rx4j.afs.vl.VlErrors;
import org.rx4j.afs.vl.VlServer;
import org.rx4j.rpc.RxEndpoint;
import org.rx4j.rpc.errors.RxException;
import org.rx4j.security.RxNullSecurityClass;

/**
 * afsq against a fake vlserver and ptserver (one rx4j endpoint on 127.0.0.1, VL 52 and PR 73) named by a
 * CellServDB in a temporary directory, with {@code --port} pointing at the fake's port.
 */
@Timeout(60)
class AfsqTest {
    @TempDir
    static Path dir;
    private static RxEndpoint server;
    private static Path cellServDb;

    @BeforeAll
    static void start() throws IOException {
        VlServer vl = (VlServer) Proxy.newProxyInstance(VlServer.class.getClassLoader(), new Class<?>[] {VlServer.class},
                (p, m, a) -> {
                    if (m.getName().equals("getEntryByNameN") && a[1].equals("root.cell")) {
                        List<Integer> servers = new ArrayList<>(Collections.nCopies(VlConstants.NMAXNSERVERS, 0));
                        servers.set(0, 0x0a000007);
                        servers.set(1, 0x0a000008);
                        List<Integer> parts = new ArrayList<>(Collections.nCopies(VlConstants.NMAXNSERVERS, 0));
                        parts.set(1, 27);
                        List<Integer> flags = new ArrayList<>(Collections.nCopies(VlConstants.NMAXNSERVERS, 0));
                        flags.set(0, VlConstants.VLSF_RWVOL);
                        flags.set(1, VlConstants.VLSF_ROVOL);
                        return new Nvldbentry("root.cell", 2, servers, parts, flags,
                                List.of(536870915, 536870916, 0), 0,
                                VlConstants.VLF_RWEXISTS | VlConstants.VLF_ROEXISTS, 0, 0, 0, 0, 0, 0, 0, 0, 0);
                    }
                    throw RxException.local(VlErrors.VL_NOENT, "no " + a[1]);
                });
        PrServer pr = (PrServer) Proxy.newProxyInstance(PrServer.class.getClassLoader(), new Class<?>[] {PrServer.class},
                (p, m, a) -> ((List<?>) a[1]).stream().map(n -> n.equals("admin") ? 1 : Afsq.ANONYMOUS_ID).toList());
        server = RxEndpoint.builder().bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))
                .service(VlDispatcher.service(52, RxNullSecurityClass.INSTANCE, vl))
                .service(PrDispatcher.service(73, RxNullSecurityClass.INSTANCE, pr))
                .open();
        cellServDb = dir.resolve("CellServDB");
        Files.writeString(cellServDb, ">test.example #fake\n127.0.0.1 #localhost\n");
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
    }

    private record Run(int status, String out, String err) {
    }

    private static Run afsq(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int status = Afsq.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new Run(status, out.toString(), err.toString());
    }

    private static String[] cell(String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(List.of("-c", "test.example", "--cellservdb", cellServDb.toString(),
                "--port", Integer.toString(server.localAddress().getPort()), "-t", "10"));
        return all.toArray(String[]::new);
    }

    @Test
    void vlEntryPrintsTheEntryAsVosDoes() {
        Run r = afsq(cell("vl-entry", "root.cell"));
        assertEquals(0, r.status(), r.err());
        assertEquals("""
                root.cell
                    RWrite: 536870915    ROnly: 536870916
                    number of sites -> 2
                       server 10.0.0.7 partition /vicepa RW Site
                       server 10.0.0.8 partition /vicepab RO Site
                """, r.out());
    }

    @Test
    void missingVolumeIsOneLineAndStatus1() {
        Run r = afsq(cell("vl-entry", "nothing"));
        assertEquals(1, r.status());
        assertEquals(1, r.err().lines().count(), r.err());
        assertEquals("afsq: VL_GetEntryByNameN (opcode 519): call aborted by peer: VL_NOENT (363524): no such entry in"
                + " the VLDB\n", r.err());
    }

    @Test
    void ptIdPrintsIdsAndNamesUnknownOnes() {
        Run r = afsq(cell("pt-id", "admin", "nobody"));
        assertEquals(1, r.status());
        assertEquals("admin 1\n", r.out());
        assertEquals("afsq: nobody: no such user or group\n", r.err());
    }

    @Test
    void badFlagsAreOneLineAndStatus2() {
        for (String[] args : List.of(new String[] {"vl-entry", "--bogus", "x"}, new String[] {"frobnicate"},
                new String[] {"pt-id"}, new String[] {})) {
            Run r = afsq(args);
            assertEquals(2, r.status(), String.join(" ", args));
            assertEquals(1, r.err().lines().count(), r.err());
            assertTrue(r.err().startsWith("afsq: "), r.err());
        }
    }

    @Test
    void securityFlagsParseAndLoadCredentials(@TempDir Path config) throws IOException {
        for (String[] args : List.of(cell("vl-entry", "root.cell", "-encrypt"),
                cell("pt-id", "admin", "-localauth", "-ccache", "/tmp/cc"))) {
            Run r = afsq(args);
            assertEquals(2, r.status(), String.join(" ", args));
            assertEquals(1, r.err().lines().count(), r.err());
        }
        Files.write(config.resolve("KeyFile"), HexFormat.of().parseHex("00000001" + "00000003" + "0123456789abcdef"));
        Run r = afsq(cell("vl-entry", "root.cell", "-localauth", "-config", config.toString(), "-encrypt"));
        // The credentials load and the call goes out under rxkad (security index 2); this test's VL server serves
        // rxnull only, so it refuses the call (RX_INVALID_OPERATION) instead of answering it unauthenticated.
        assertEquals(1, r.status(), r.err());
        assertTrue(r.err().contains("RX_INVALID_OPERATION (-2)"), r.err());
        r = afsq(cell("pt-id", "admin", "-ccache", "FILE:" + config.resolve("no-such-ccache")));
        assertEquals(1, r.status(), r.err());
        assertTrue(r.err().contains("no-such-ccache"), r.err());
        r = afsq(cell("pt-id", "admin", "-localauth", "-config", config.resolve("empty").toString()));
        assertEquals(1, r.status(), r.err());
        String missing = "server configuration directory " + config.resolve("empty") + ": no such directory";
        assertTrue(r.err().contains(missing), r.err());
    }

    @Test
    void unknownCellNamesTheCell() {
        Run r = afsq("vl-entry", "root.cell", "-c", "nowhere.invalid", "--cellservdb", cellServDb.toString(),
                "--dns", "127.0.0.1:9", "-t", "1");
        assertEquals(1, r.status());
        assertTrue(r.err().startsWith("afsq: "), r.err());
        assertTrue(r.err().contains("nowhere.invalid"), r.err());
    }
    @Test
    void aCellServDbNamedOnTheCommandLineMustExist() {
        Path none = dir.resolve("no-CellServDB");
        Run r = afsq("vl-entry", "root.cell", "-c", "test.example", "--cellservdb", none.toString());
        assertEquals(2, r.status(), r.err());
        assertEquals(1, r.err().lines().count(), r.err());
        assertTrue(r.err().startsWith("afsq: --cellservdb " + none + ": no such file"), r.err());
    }

    @Test
    void missingThisCellSaysWhatToDo() {
        Path none = dir.resolve("no-ThisCell");
        Run r = afsq("vl-entry", "root.cell", "--thiscell", none.toString(), "--cellservdb", cellServDb.toString());
        assertEquals(2, r.status(), "no cell named and none configured: bad usage: " + r.err());
        assertEquals(1, r.err().lines().count(), r.err());
        assertTrue(r.err().startsWith("afsq: no cell given: name it with -c CELL (" + none + ": no such file"),
                r.err());
    }

    @Test
    void fileCommandsRefuseWhatIsNotAPathOfTheCellInOneLine() {
        Run relative = afsq(cell("stat", "relative/path"));
        assertEquals(1, relative.status(), relative.err());
        assertEquals(1, relative.err().lines().count(), relative.err());
        assertTrue(relative.err().startsWith("afsq: relative/path: not an AFS path (it must start with "
                + "/afs/test.example)"), relative.err());
        Run other = afsq(cell("ls", "/afs/other.example/x"));
        assertEquals(1, other.status(), other.err());
        assertTrue(other.err().contains("cell other.example is not this file system's (test.example)"), other.err());
        Run fid = afsq(cell("cat", "--fid", "1.2"));
        assertEquals(1, fid.status(), fid.err());
        assertTrue(fid.err().contains("not a fid (volume.vnode.unique): 1.2"), fid.err());
    }

    @Test
    void helpNamesBothSecurityClasses() {
        Run r = afsq("--help");
        assertEquals(0, r.status(), r.err());
        assertTrue(r.out().replaceAll("\\s+", " ").contains("(rxnull, or rxkad with -localauth or -ccache)"), r.out());
    }
}
