// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

// docs/embedding.md "Pools" includes this file verbatim from the "begin" marker to the "end" marker
// (PoolExampleTest checks that it still does and runs it).
// pool-example:begin
package org.rx4j.rpc.example;

import static org.rx4j.rpc.example.EmbeddingExample.OP_ADD;
import static org.rx4j.rpc.example.EmbeddingExample.SERVICE_ID;

import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.rx4j.rpc.RxEndpoint;
import org.rx4j.rpc.channel.RxConnectionPool;
import org.rx4j.rpc.channel.RxPoolConfig;
import org.rx4j.rpc.channel.RxRetryPolicy;
import org.rx4j.rpc.xdr.XdrReader;
import org.rx4j.security.RxNullSecurityClass;

/** Calls through a connection pool: more than 4 calls at once to one server; ADD may be repeated. */
public final class PoolExample {
    private PoolExample() {
    }

    /** Sends 16 ADD calls at once through a pool of at most 4 connections (EmbeddingExample's server). */
    public static void runClient(InetSocketAddress server, PrintStream out) throws Exception {
        RxPoolConfig config = RxPoolConfig.builder()
                .maxConnections(4)                          // at most 4 Rx connections: 16 calls at once
                .idleTimeout(Duration.ofSeconds(30))        // a connection without calls for 30 s is closed
                .retry(RxRetryPolicy.idempotent(OP_ADD))    // ADD is repeated after RX_CALL_DEAD; nothing else is
                .build();
        try (RxEndpoint client = RxEndpoint.builder()
                .bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))
                .open();
             RxConnectionPool pool = RxConnectionPool.open(client, server, SERVICE_ID,
                     RxNullSecurityClass.INSTANCE, config)) {
            List<CompletableFuture<Integer>> sums = new ArrayList<>();
            for (int i = 1; i <= 16; i++) {
                int a = i;
                sums.add(pool.callAsync(OP_ADD, w -> {
                    w.writeInt(a);
                    w.writeInt(a);
                }, XdrReader::readInt));
            }
            int total = 0;
            for (CompletableFuture<Integer> sum : sums) {
                total += sum.get(10, TimeUnit.SECONDS);
            }
            out.println("16 sums: " + total);
            RxConnectionPool.Stats stats = pool.stats();
            out.println("connections within the bound: " + (stats.peakConnections() <= 4));
        }   // the pool closes its connections, then the endpoint closes
    }

    /** Runs EmbeddingExample's server and this client in one process. */
    public static void main(String[] args) throws Exception {
        try (RxEndpoint server = EmbeddingExample.startServer(0)) {
            runClient(server.localAddress(), System.out);
        }
    }
}
// pool-example:end
