// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

// docs/embedding.md "Security classes" includes this file verbatim from the "begin" marker to the "end" marker
// (RxkadExampleTest checks that it still does and runs it on a throwaway key directory).
// rxkad-example:begin
package org.rx4j.rpc.example;

import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.SecureRandom;
import org.rx4j.rpc.RxConnection;
import org.rx4j.rpc.RxEndpoint;
import org.rx4j.rpc.RxService;
import org.rx4j.security.CallerIdentity;
import org.rx4j.security.rxkad.KeyDirectory;
import org.rx4j.security.rxkad.LocalAuth;
import org.rx4j.security.rxkad.RxkadClientSecurity;
import org.rx4j.security.rxkad.RxkadCredentials;
import org.rx4j.security.rxkad.RxkadLevel;
import org.rx4j.security.rxkad.RxkadServerSecurity;

/** An rxkad server (at least auth) and a client at crypt with -localauth credentials, from one key directory. */
public final class RxkadExample {
    private RxkadExample() {
    }

    /** Serves service 700 with rxkad and calls it once; {@code keys} holds a KeyFile or KeyFileExt. */
    public static void run(Path keys, PrintStream out) throws Exception {
        InetSocketAddress loopback = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
        try (RxEndpoint server = RxEndpoint.builder().bind(loopback).open();
             RxEndpoint client = RxEndpoint.builder().bind(loopback).open()) {
            // Server: rxkad required, at least auth; the handler sees who called and at which level.
            server.registerService(RxService.builder(700)
                    .securityClass(new RxkadServerSecurity(new KeyDirectory(keys), RxkadLevel.AUTH))
                    .wholeStream(call -> {
                        byte[] request = call.input().readAllBytes();
                        CallerIdentity who = call.identity().orElseThrow();     // e.g. afs, "", "", level 2
                        call.output().write((who.principal() + " sent " + request.length + " bytes")
                                .getBytes(StandardCharsets.UTF_8));
                    }).build());
            // Client: credentials, then a connection at crypt (every DATA packet encrypted).
            RxkadCredentials c = LocalAuth.fromDirectory(keys, new SecureRandom());
            RxConnection conn = client.connect(server.localAddress(), 700,
                    new RxkadClientSecurity(RxkadLevel.CRYPT, c.sessionKey(), c.kvno(), c.ticket()));
            byte[] reply = conn.call("hello".getBytes(StandardCharsets.UTF_8));
            out.println(new String(reply, StandardCharsets.UTF_8));          // afs sent 5 bytes
        }
    }

    /** Runs it on an AFS server's key directory (the argument, else /etc/openafs/server). */
    public static void main(String[] args) throws Exception {
        run(Path.of(args.length > 0 ? args[0] : "/etc/openafs/server"), System.out);
    }
}
// rxkad-example:end
