// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

// docs/embedding.md includes this file verbatim from the "begin" marker to the "end" marker
// (EmbeddingDocTest checks that it still does, EmbeddingExampleTest runs it).
// embedding-example:begin
package org.rx4j.rpc.example;

import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.rx4j.rpc.RxConnection;
import org.rx4j.rpc.RxEndpoint;
import org.rx4j.rpc.RxService;
import org.rx4j.rpc.errors.RxException;
import org.rx4j.rpc.xdr.XdrMarshaller;
import org.rx4j.rpc.xdr.XdrReader;
import org.rx4j.rpc.xdr.XdrSide;
import org.rx4j.rpc.xdr.XdrWriter;

/** A small Rx service with two opcodes, and a client calling it synchronously and asynchronously. */
public final class EmbeddingExample {
    /** The service id clients connect to (any 1..65535 your servers agree on). */
    public static final int SERVICE_ID = 4242;
    /** ADD(int a, int b) returns int: served by a blocking handler on the worker pool. */
    public static final int OP_ADD = 1;
    /** GREET(name: string of at most 64 bytes) returns a string: served on the event loop, never blocks. */
    public static final int OP_GREET = 2;

    private EmbeddingExample() {
    }

    /** Starts a server on the loopback address; port 0 picks a free port. */
    public static RxEndpoint startServer(int port) throws IOException {
        RxService service = RxService.builder(SERVICE_ID)
                .blocking(OP_ADD, (call, opcode) -> {
                    // Worker thread: may block. The opcode is already read; the arguments follow.
                    XdrReader args = new XdrReader(call.input(), XdrSide.SERVER);
                    int a = args.readInt();
                    int b = args.readInt();
                    new XdrWriter(call.output(), XdrSide.SERVER).writeInt(a + b);
                })   // returning ends the reply; throwing RxException aborts the call with its code
                .async(OP_GREET, request -> {
                    // Event loop: must not block. Gets the whole request, completes with the whole reply.
                    String name = request.xdr().readString(64);
                    byte[] reply = XdrMarshaller.toBytes(XdrSide.SERVER, w -> w.writeString("hello, " + name, 128));
                    return CompletableFuture.completedFuture(reply);
                })
                .build();
        RxEndpoint server = RxEndpoint.builder()
                .bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port))
                .workers(2, 16)            // blocking handlers: 2 threads kept, at most 16 at once
                .service(service)          // registered before the socket reads its first packet
                .open();
        return server;
    }

    /** Calls both opcodes, then an unknown one, printing what comes back. */
    public static void runClient(InetSocketAddress server, PrintStream out) throws Exception {
        try (RxEndpoint client = RxEndpoint.builder()
                .bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))
                .open()) {
            RxConnection conn = client.connect(server, SERVICE_ID);   // rxnull; up to 4 calls at once

            // Synchronous: blocks this thread until the results arrive.
            int sum = conn.call(OP_ADD, w -> {
                w.writeInt(40);
                w.writeInt(2);
            }, XdrReader::readInt);
            out.println("add: " + sum);

            // Asynchronous: no thread waits; the future completes on the callback executor.
            CompletableFuture<String> greeting =
                    conn.callAsync(OP_GREET, w -> w.writeString("rx4j", 64), r -> r.readString(128));
            out.println("greet: " + greeting.get(10, TimeUnit.SECONDS));

            // Errors arrive as RxException with the Rx abort code (docs/errors.md).
            try {
                conn.call(99, w -> { }, XdrReader::readInt);
            } catch (RxException e) {
                out.println("opcode 99: " + e.codeName() + " (" + e.code() + ")");
            }
        }
    }

    /** Runs server and client in one process. */
    public static void main(String[] args) throws Exception {
        try (RxEndpoint server = startServer(0)) {
            runClient(server.localAddress(), System.out);
        }   // close() lets calls in flight finish (2 s), then aborts the rest with RX_USER_ABORT (-6)
    }
}
// embedding-example:end
