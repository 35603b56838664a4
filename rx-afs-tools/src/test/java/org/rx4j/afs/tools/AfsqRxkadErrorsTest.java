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
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.rx4j.afs.vl.VlDispatcher;
import org.rx4j.afs.vl.VlErrors;
import org.rx4j.afs.vl.VlServer;
import org.rx4j.rpc.RxEndpoint;
import org.rx4j.rpc.errors.RxErrorTables;
import org.rx4j.rpc.errors.RxException;
import org.rx4j.security.rxkad.RxkadCodes;
import org.rx4j.security.rxkad.RxkadLevel;
import org.rx4j.security.rxkad.RxkadServerSecurity;
import org.rx4j.security.rxkad.ServerKey;

/**
 * afsq prints rxkad's abort codes by name (docs/security.md "Errors"): a fake vlserver on 127.0.0.1 that requires
 * rxkad with one DES key refuses afsq's {@code -localauth} ticket minted from another key of the same version, and
 * afsq says {@code RXKADBADTICKET (19270407): ...} instead of a bare number.
 */
@Timeout(60)
class AfsqRxkadErrorsTest {
    static final byte[] SERVER_KEY = HexFormat.of().parseHex("0123456789abcdef");
    static final String OTHER_KEY = "1f2f3d4c5b6b7989";

    @TempDir
    static Path dir;
    private static RxEndpoint server;

    @BeforeAll
    static void start() throws IOException {
        VlServer vl = (VlServer) Proxy.newProxyInstance(VlServer.class.getClassLoader(),
                new Class<?>[] {VlServer.class}, (p, m, a) -> {
                    throw RxException.local(VlErrors.VL_NOENT, "no " + a[1]);
                });
        server = RxEndpoint.builder().bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))
                .service(VlDispatcher.service(52, new RxkadServerSecurity(
                        List.of(new ServerKey(ServerKey.RXKAD, 3, 0, SERVER_KEY)), RxkadLevel.CLEAR), vl))
                .open();
        Files.writeString(dir.resolve("CellServDB"), ">test.example #fake\n127.0.0.1 #localhost\n");
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
    }

    /** Runs {@code afsq vl-entry root.cell -localauth} with a KeyFile holding {@code keyHex} as kvno 3. */
    private static String[] localauthWithKey(String keyHex) throws IOException {
        Path config = Files.createDirectories(dir.resolve(keyHex));
        Files.write(config.resolve("KeyFile"), HexFormat.of().parseHex("00000001" + "00000003" + keyHex));
        return new String[] {"vl-entry", "root.cell", "-localauth", "-config", config.toString(), "-c",
            "test.example", "--cellservdb", dir.resolve("CellServDB").toString(), "--port",
            Integer.toString(server.localAddress().getPort()), "-t", "10"};
    }

    private static String afsqErr(String[] args, int status) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        assertEquals(status, Afsq.run(args, new PrintWriter(out, true), new PrintWriter(err, true)), err.toString());
        return err.toString();
    }

    @Test
    void aTicketSealedWithAnotherKeyPrintsRxkadBadTicketByName() throws IOException {
        String err = afsqErr(localauthWithKey(OTHER_KEY), 1);
        assertEquals(1, err.lines().count(), err);
        assertTrue(err.contains("RXKADBADTICKET (19270407): the ticket does not open with the server's key"), err);
        // With the server's own key the call gets through rxkad and the server's own answer prints by name.
        err = afsqErr(localauthWithKey(HexFormat.of().formatHex(SERVER_KEY)), 1);
        assertTrue(err.contains("VL_NOENT (363524)"), err);
    }

    @Test
    void everyRxkadCodeIsRegisteredWithItsNameAndMessage() {
        afsqErr(new String[] {"--help"}, 0); // afsq registers its tables when it runs
        for (int code = 19270400; code <= 19270412; code++) {
            RxErrorTables.Entry e = RxErrorTables.lookup(code);
            assertEquals(RxkadCodes.name(code), e.name());
            assertEquals(RxkadCodes.message(code), e.message());
        }
        assertEquals("RXKADEXPIRED", RxErrorTables.lookup(RxkadCodes.RXKADEXPIRED).name());
        assertEquals("RXKADILLEGALLEVEL (19270412): the caller may not use encrypted connections",
                RxErrorTables.describe(RxkadCodes.RXKADILLEGALLEVEL));
    }
}
