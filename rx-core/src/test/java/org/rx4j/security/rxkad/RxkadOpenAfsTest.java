// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.security.rxkad;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.rx4j.rpc.RxConnection;
import org.rx4j.rpc.RxEndpoint;
import org.rx4j.rpc.RxService;
import org.rx4j.rpc.errors.RxException;
import org.rx4j.security.CallerIdentity;
import org.rx4j.security.rxkad.handshake.V4Ticket;
import org.rx4j.testing.LeakCheckExtension;
import org.rx4j.testing.OpenAfsHarness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * rxkad between rx4j and a real OpenAFS Rx endpoint, both directions, at each level: rxkad_echo.c (a test resource)
 * built with gcc against Debian's libafsrpc serves an echo with {@code rxkad_NewServerSecurityObject} and calls one
 * with {@code rxkad_NewClientSecurityObject}. OpenAFS accepts rx4j's RESPONSE and DATA packets and rx4j accepts
 * OpenAFS's (docs/security.md "In the engine"). Skipped, with the reason, where gcc or the libraries are missing.
 */
@Timeout(120)
@ExtendWith(LeakCheckExtension.class)
class RxkadOpenAfsTest {
    static final int SERVICE = 731;
    static final int KVNO = 7;
    static final long SERVER_KEY = 0x0123456789abcdefL; // DES odd parity in every byte
    static final long SESSION = 0x1f2e3d4c5b6a7988L;
    private static final HexFormat HEX = HexFormat.of();

    @TempDir
    static Path dir;
    private static Path binary;
    private Process peer;
    private RxEndpoint endpoint;

    @BeforeAll
    static void build() throws IOException, InterruptedException {
        binary = OpenAfsHarness.build(dir, RxkadOpenAfsTest.class, "rxkad_echo.c");
    }

    @AfterEach
    void stop() throws InterruptedException {
        if (endpoint != null) {
            endpoint.close();
        }
        if (peer != null) {
            peer.destroy();
            if (!peer.waitFor(10, TimeUnit.SECONDS)) {
                peer.destroyForcibly();
            }
        }
    }

    private static byte[] ticket(String name) {
        long now = System.currentTimeMillis() / 1000;
        return new V4Ticket(name, "", "", 0, SESSION, now - 60, now + 3600, "afs", "").seal(SERVER_KEY);
    }

    private static int freePort() throws IOException {
        try (DatagramSocket s = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    /** Starts the OpenAFS echo server; returns its address once it listens. */
    private InetSocketAddress openAfsServer(RxkadLevel minLevel) throws IOException {
        int port = freePort();
        peer = new ProcessBuilder(binary.toString(), "server", Integer.toString(port),
                Integer.toString(minLevel.wire()), String.format("%016x", SERVER_KEY), Integer.toHexString(KVNO))
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        BufferedReader out = new BufferedReader(new InputStreamReader(peer.getInputStream(), StandardCharsets.US_ASCII));
        assertEquals("ready", out.readLine(), "rxkad_echo server did not start");
        return new InetSocketAddress(InetAddress.getLoopbackAddress(), port);
    }

    @ParameterizedTest
    @EnumSource(RxkadLevel.class)
    void anOpenAfsServerAcceptsRx4jsResponseAndPackets(RxkadLevel level) throws Exception {
        InetSocketAddress server = openAfsServer(RxkadLevel.CLEAR);
        endpoint = RxEndpoint.builder().bind(new InetSocketAddress("127.0.0.1", 0)).open();
        RxConnection conn = endpoint.connect(server, SERVICE,
                new RxkadClientSecurity(level, new SessionKey(SESSION), KVNO, ticket("carol")));
        byte[] request = new byte[300_000];
        for (int i = 0; i < request.length; i++) {
            request[i] = (byte) (i * 7 + (i >>> 9));
        }
        for (int round = 0; round < 2; round++) {
            byte[] reply = conn.call(request);
            assertEquals(request.length + 1 + 5, reply.length);
            for (int i = 0; i < request.length; i++) {
                if (reply[i] != request[request.length - 1 - i]) {
                    throw new AssertionError("reply byte " + i + " differs");
                }
            }
            assertEquals(level.wire(), reply[request.length], "OpenAFS runs the connection at the client's level");
            assertEquals("carol", new String(reply, request.length + 1, 5, StandardCharsets.US_ASCII));
        }
    }

    @Test
    void anOpenAfsServerRefusesALevelBelowItsMinimum() throws Exception {
        InetSocketAddress server = openAfsServer(RxkadLevel.CRYPT);
        endpoint = RxEndpoint.builder().bind(new InetSocketAddress("127.0.0.1", 0)).open();
        RxConnection conn = endpoint.connect(server, SERVICE,
                new RxkadClientSecurity(RxkadLevel.AUTH, new SessionKey(SESSION), KVNO, ticket("carol")));
        RxException e = assertThrows(RxException.class, () -> conn.call(new byte[100]));
        assertEquals(RxkadCodes.RXKADLEVELFAIL, e.code());
    }

    /** Runs the OpenAFS client against this test's endpoint at {@code level}; returns the line it printed. */
    private String openAfsClient(RxkadLevel level) throws IOException {
        int port = endpoint.localAddress().getPort();
        peer = new ProcessBuilder(binary.toString(), "client", Integer.toString(port), Integer.toString(level.wire()),
                String.format("%016x", SESSION), Integer.toHexString(KVNO), HEX.formatHex(ticket("dave")), "300000")
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        BufferedReader out = new BufferedReader(new InputStreamReader(peer.getInputStream(), StandardCharsets.US_ASCII));
        String line = out.readLine();
        assertNotNull(line, "rxkad_echo client printed nothing");
        return line;
    }

    private static RxkadServerSecurity rx4jServer(RxkadLevel minLevel) {
        return new RxkadServerSecurity(List.of(
                new ServerKey(ServerKey.RXKAD, KVNO, 0, HEX.parseHex(String.format("%016x", SERVER_KEY)))), minLevel);
    }

    @Test
    void anOpenAfsClientRefusesRx4jsChallengeAboveItsLevel() throws Exception {
        endpoint = RxEndpoint.builder().bind(new InetSocketAddress("127.0.0.1", 0)).open();
        endpoint.registerService(RxService.builder(SERVICE).securityClass(rx4jServer(RxkadLevel.CRYPT))
                .wholeStream(call -> {
            throw new AssertionError("no call may reach the handler");
        }).build());
        assertEquals("error " + RxkadCodes.RXKADLEVELFAIL, openAfsClient(RxkadLevel.AUTH));
    }

    @ParameterizedTest
    @EnumSource(RxkadLevel.class)
    void rx4jAcceptsAnOpenAfsClientsResponseAndPackets(RxkadLevel level) throws Exception {
        endpoint = RxEndpoint.builder().bind(new InetSocketAddress("127.0.0.1", 0)).open();
        CallerIdentity[] seen = new CallerIdentity[1];
        endpoint.registerService(RxService.builder(SERVICE).securityClass(rx4jServer(RxkadLevel.CLEAR))
                .wholeStream(call -> {
                    byte[] request = call.input().readAllBytes();
                    seen[0] = call.identity().orElseThrow();
                    byte[] reply = new byte[request.length + 1 + seen[0].principal().length()];
                    for (int i = 0; i < request.length; i++) {
                        reply[i] = request[request.length - 1 - i];
                    }
                    reply[request.length] = (byte) seen[0].level();
                    byte[] name = seen[0].principal().getBytes(StandardCharsets.US_ASCII);
                    System.arraycopy(name, 0, reply, request.length + 1, name.length);
                    call.output().write(reply);
                }).build());
        String line = openAfsClient(level);
        String tail = String.format("%02x", level.wire()) + HEX.formatHex("dave".getBytes(StandardCharsets.US_ASCII));
        assertEquals("ok " + Integer.toHexString(300_000 + 5) + " " + tail, line);
        assertEquals(level.wire(), seen[0].level());
        assertEquals("dave", seen[0].principal());
    }
}
