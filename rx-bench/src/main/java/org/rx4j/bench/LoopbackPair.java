// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import org.rx4j.config.RxConfig;
import org.rx4j.config.TransportKind;
import org.rx4j.rpc.RxCall;
import org.rx4j.rpc.RxEndpoint;
import org.rx4j.rpc.RxService;

/**
 * Two real {@link RxEndpoint}s on 127.0.0.1 in this JVM (UDP sockets, event loops, worker pools), for the
 * end-to-end benchmarks. The server's service {@value #SERVICE} reads the whole request stream (bytes discarded
 * into one reused 64 KiB array) and answers with {@code replyBytes} zero bytes, as rxperf's server does.
 */
final class LoopbackPair implements AutoCloseable {
    /** The benchmark service id. */
    static final int SERVICE = 1;

    final RxEndpoint server;
    final RxEndpoint client;
    final InetSocketAddress serverAddress;

    /**
     * @param replyBytes bytes of every reply, &gt;= 0
     * @throws IOException if a socket cannot be bound
     */
    LoopbackPair(int replyBytes) throws IOException {
        this(replyBytes, TransportKind.NIO, true);
    }

    /**
     * @param replyBytes bytes of every reply, &gt;= 0
     * @param transport both endpoints' socket implementation
     * @param segmentationOffload both endpoints' UDP GSO/GRO setting (epoll only; docs/transport.md "Segmentation
     *     offload")
     * @throws IOException if a socket cannot be bound
     */
    LoopbackPair(int replyBytes, TransportKind transport, boolean segmentationOffload) throws IOException {
        InetSocketAddress any = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
        byte[] reply = new byte[replyBytes];
        RxConfig config = RxConfig.builder().segmentationOffload(segmentationOffload).build();
        server = RxEndpoint.builder().bind(any).jmx(false).transport(transport).config(config)
                .service(RxService.builder(SERVICE).wholeStream(call -> serve(call, reply)).build()).open();
        client = RxEndpoint.builder().bind(any).jmx(false).transport(transport).config(config).open();
        serverAddress = server.localAddress();
    }

    private static void serve(RxCall call, byte[] reply) throws IOException {
        byte[] sink = SCRATCH.get();
        InputStream in = call.input();
        while (in.read(sink) >= 0) {
            // discard
        }
        OutputStream out = call.output();
        out.write(reply);
        out.close();
    }

    private static final ThreadLocal<byte[]> SCRATCH = ThreadLocal.withInitial(() -> new byte[65536]);

    /**
     * Runs one call: sends {@code request} {@code times} times, then reads the reply into {@code replyBuffer}.
     *
     * @param conn a connection of {@link #client} to {@link #serverAddress}
     * @param request bytes to send
     * @param times how often to send them
     * @param replyBuffer where the reply goes (its bytes are overwritten)
     * @return reply bytes read
     * @throws IOException if the call fails
     */
    static int call(org.rx4j.rpc.RxConnection conn, byte[] request, int times, byte[] replyBuffer)
            throws IOException {
        try (RxCall call = conn.newCall()) {
            OutputStream out = call.output();
            for (int i = 0; i < times; i++) {
                out.write(request);
            }
            out.close();
            InputStream in = call.input();
            int total = 0;
            int n;
            while ((n = in.read(replyBuffer)) >= 0) {
                total += n;
            }
            return total;
        }
    }

    @Override
    public void close() {
        client.close();
        server.close();
    }
}
