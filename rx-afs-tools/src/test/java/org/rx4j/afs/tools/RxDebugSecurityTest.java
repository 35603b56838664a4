// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.afs.tools;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.security.SecureRandom;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.rx4j.rpc.RxEndpoint;
import org.rx4j.rpc.RxService;
import org.rx4j.security.rxkad.LocalAuth;
import org.rx4j.security.rxkad.RxkadClientSecurity;
import org.rx4j.security.rxkad.RxkadCredentials;
import org.rx4j.security.rxkad.RxkadLevel;
import org.rx4j.security.rxkad.RxkadServerSecurity;
import org.rx4j.security.rxkad.ServerKey;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * rx4j's rxdebug prints an rxkad connection's security statistics the way Debian's rxdebug does (docs/security.md
 * "Seeing the level"): an rx4j server that requires rxkad, one call at auth level, and the listing of the server's
 * connection.
 */
@Timeout(60)
class RxDebugSecurityTest {
    private static final int SERVICE = 735;

    @Test
    void anRxkadServerConnectionShowsItsLevelFlagsAndCounts() throws Exception {
        List<ServerKey> keys = List.of(new ServerKey(ServerKey.RXKAD, 4, 0,
                new byte[] {0x13, 0x57, 0x79, 0x1f, 0x2a, 0x4c, 0x6e, (byte) 0x8a}));
        InetSocketAddress loopback = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
        try (RxEndpoint server = RxEndpoint.builder().bind(loopback).open();
             RxEndpoint client = RxEndpoint.builder().bind(loopback).open()) {
            server.registerService(RxService.builder(SERVICE)
                    .securityClass(new RxkadServerSecurity(keys, RxkadLevel.AUTH)).wholeStream(call -> {
                call.input().readAllBytes();
                call.output().write(new byte[10]);
            }).build());
            RxkadCredentials local = LocalAuth.fromKeys(keys, new SecureRandom());
            client.connect(server.localAddress(), SERVICE,
                    new RxkadClientSecurity(RxkadLevel.AUTH, local.sessionKey(), local.kvno(), local.ticket()))
                    .call(new byte[20]);

            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            assertEquals(0, RxDebug.run(new String[] {"127.0.0.1", Integer.toString(server.localAddress().getPort()),
                "-allconnections"}, new PrintWriter(out, true), new PrintWriter(err, true)), err.toString());
            List<String> lines = out.toString().lines().toList();
            int at = 0;
            while (at < lines.size() && !lines.get(at).endsWith("security index 2, server conn")) {
                at++;
            }
            assertTrue(at + 3 < lines.size(), "an rxkad server connection is listed: " + lines);
            // A local ticket never ends, so no expiry is printed.
            assertEquals(List.of("  rxkad: level auth, flags authenticated pktCksum",
                    "  Received 20 bytes in 1 packets", "  Sent 10 bytes in 1 packets"), lines.subList(at + 1, at + 4));
        }
    }
}
