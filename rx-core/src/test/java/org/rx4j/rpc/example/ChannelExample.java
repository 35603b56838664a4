// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

// docs/embedding.md "Channels" includes this file verbatim from the "begin" marker to the "end" marker
// (ChannelExampleTest checks that it still does and runs it).
// channel-example:begin
package org.rx4j.rpc.example;

import static org.rx4j.rpc.example.EmbeddingExample.OP_ADD;
import static org.rx4j.rpc.example.EmbeddingExample.SERVICE_ID;

import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import org.rx4j.rpc.RxCallOptions;
import org.rx4j.rpc.RxEndpoint;
import org.rx4j.rpc.channel.RxChannel;
import org.rx4j.rpc.channel.RxChannelConfig;
import org.rx4j.rpc.channel.RxPoolConfig;
import org.rx4j.rpc.channel.RxRetryBudget;
import org.rx4j.rpc.channel.RxRetryPolicy;
import org.rx4j.rpc.xdr.XdrReader;
import org.rx4j.security.RxNullSecurityClass;

/** One client over several servers: balancing, ejection of a dead server, repeats within a budget. */
public final class ChannelExample {
    private ChannelExample() {
    }

    /** Sends 12 ADD calls through a channel over {@code servers} (EmbeddingExample's servers), one at a time. */
    public static void runClient(List<InetSocketAddress> servers, PrintStream out) throws Exception {
        RxChannelConfig config = RxChannelConfig.builder()
                .balancing(RxChannelConfig.Balancing.LEAST_OUTSTANDING)    // the server with the fewest calls running
                .consecutiveFailures(3)                   // 3 connection-level failures in a row eject a server...
                .ejection(Duration.ofSeconds(30), Duration.ofMinutes(5))   // ...for 30 s, doubling while re-probes fail
                .retry(RxRetryPolicy.idempotent(OP_ADD))  // ADD is repeated on another server (3 attempts at most)
                .budget(RxRetryBudget.defaults())         // repeats in all: 20 % of the calls + 10 per second
                .pool(RxPoolConfig.builder().maxConnections(4).build())    // each server's pool
                .build();
        try (RxEndpoint client = RxEndpoint.builder()
                .bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))
                .open();
             RxChannel channel = RxChannel.open(client, servers, SERVICE_ID, RxNullSecurityClass.INSTANCE, config)) {
            int total = 0;
            for (int i = 1; i <= 12; i++) {
                int a = i;
                // a deadline over all attempts and repeats
                total += channel.call(OP_ADD, w -> {
                    w.writeInt(a);
                    w.writeInt(a);
                }, XdrReader::readInt, RxCallOptions.timeout(Duration.ofSeconds(5)));
            }
            out.println("12 sums: " + total);
            RxChannel.Stats stats = channel.stats();
            out.println("calls " + stats.calls() + ", repeats " + stats.retries());
            for (RxChannel.AddressStats s : stats.addresses()) {
                out.println(s.state() + ": " + s.attempts() + " attempts, " + s.failures() + " failed");
            }
        }   // the channel closes its pools, then the endpoint closes
    }

    /** Runs two of EmbeddingExample's servers and this client, with a dead address listed first. */
    public static void main(String[] args) throws Exception {
        InetSocketAddress dead;
        try (RxEndpoint gone = EmbeddingExample.startServer(0)) {
            dead = gone.localAddress();                   // nothing listens there once it closed
        }
        try (RxEndpoint one = EmbeddingExample.startServer(0);
             RxEndpoint two = EmbeddingExample.startServer(0)) {
            runClient(List.of(dead, one.localAddress(), two.localAddress()), System.out);
        }
    }
}
// channel-example:end
