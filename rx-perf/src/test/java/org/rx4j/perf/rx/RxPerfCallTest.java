// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.perf.rx;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static java.util.concurrent.TimeUnit.SECONDS;

import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.LongAdder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.rx4j.perf.client.ClientDriver;
import org.rx4j.perf.client.RunResult;
import org.rx4j.perf.protocol.RxperfCommand;
import org.rx4j.perf.protocol.RxperfRequest;
import org.rx4j.perf.protocol.RxperfServerHandler;
import org.rx4j.perf.transport.PerfCall;
import org.rx4j.perf.transport.PerfCallException;
import org.rx4j.perf.transport.PerfCallHandler;
import org.rx4j.perf.transport.PerfClientTransport;
import org.rx4j.perf.transport.PerfConnection;
import org.rx4j.perf.transport.PerfEndpointOptions;
import org.rx4j.perf.transport.PerfServerTransport;
import org.rx4j.perf.transport.RxperfAbortException;

/** The rx4j adapter keeps the {@link PerfCall} contract on loopback sockets. */
@Timeout(60)
class RxPerfCallTest {
    private static final int SVC = 147;

    private interface Body {
        void run(PerfServerTransport server, PerfCall call) throws Exception;
    }

    private static void withCall(PerfCallHandler handler, Body body) throws Exception {
        RxPerfTransportFactory f = new RxPerfTransportFactory();
        PerfEndpointOptions o = PerfEndpointOptions.defaults();
        try (PerfServerTransport server = f.newServer(o); PerfClientTransport client = f.newClient(o)) {
            int port = server.start(new InetSocketAddress("127.0.0.1", 0), SVC, handler);
            PerfCall call = client.connect(new InetSocketAddress("127.0.0.1", port), SVC).newCall();
            body.run(server, call);
        }
    }

    @Test
    void closingTheRequestStreamIsFinishRequest() throws Exception {
        withCall((in, out) -> out.write(in.readAllBytes()), (server, call) -> {
            call.requestStream().write(new byte[] {1, 2, 3});
            call.requestStream().close();
            assertArrayEquals(new byte[] {1, 2, 3}, call.replyStream().readAllBytes());
            call.close();
            assertEquals(1L, server.stats().get("packetsReceived.DATA"),
                    "one request packet carrying the bytes and LAST_PACKET: " + server.stats());
        });
    }

    @Test
    void requestStreamFailuresCarryTheAbortCode() throws Exception {
        withCall((in, out) -> {
            throw new RxperfAbortException(17, "refused");
        }, (server, call) -> {
            OutputStream out = call.requestStream();
            PerfCallException written = assertThrows(PerfCallException.class, () -> {
                while (true) {
                    out.write(0); // buffered until the server's ABORT arrives, then it throws
                    Thread.onSpinWait();
                }
            });
            assertEquals(17, written.code());
            assertEquals(17, assertThrows(PerfCallException.class, out::flush).code());
            assertEquals(17, assertThrows(PerfCallException.class, out::close).code());
            assertEquals(17, assertThrows(PerfCallException.class, call::close).code(),
                    "close reports the abort again (PerfCall.close)");
        });
    }

    @Test
    void asyncCallCarriesTheRepliesAndTheAbortCode() throws Exception {
        PerfCallHandler handler = new PerfCallHandler() {
            @Override
            public void handle(java.io.InputStream in, OutputStream out) throws java.io.IOException {
                out.write('S');
                out.write(in.readAllBytes());
            }

            @Override
            public int smallCallPrefixBytes() {
                return 4;
            }

            @Override
            public boolean isSmallCall(byte[] prefix, int length, boolean whole) {
                return prefix[0] != 0;
            }

            @Override
            public byte[] handleSmall(int firstWord, byte[] rest) throws RxperfAbortException {
                if (firstWord == 0x09000000) {
                    throw new RxperfAbortException(4711, "refused on the loop");
                }
                return new byte[] {'L', (byte) rest.length};
            }
        };
        RxPerfTransportFactory f = new RxPerfTransportFactory();
        PerfEndpointOptions o = PerfEndpointOptions.defaults();
        try (PerfServerTransport server = f.newServer(o); PerfClientTransport client = f.newClient(o)) {
            int port = server.start(new InetSocketAddress("127.0.0.1", 0), SVC, handler);
            PerfConnection conn = client.connect(new InetSocketAddress("127.0.0.1", port), SVC);
            assertTrue(conn.supportsAsync());
            assertArrayEquals(new byte[] {'L', 3}, conn.callAsync(new byte[] {1, 0, 0, 0, 5, 6, 7}).get(20, SECONDS));
            assertArrayEquals(new byte[] {'S', 0, 0, 0, 0, 5}, conn.callAsync(new byte[] {0, 0, 0, 0, 5})
                    .get(20, SECONDS), "the stream path for what the router leaves");
            ExecutionException e = assertThrows(ExecutionException.class,
                    () -> conn.callAsync(new byte[] {9, 0, 0, 0}).get(20, SECONDS));
            assertEquals(4711, ((PerfCallException) e.getCause()).code());
        }
    }

    @Test
    void rpcRunOverRx4jServesEveryCallOnTheLoopPaths() throws Exception {
        RxPerfTransportFactory f = new RxPerfTransportFactory();
        PerfEndpointOptions o = PerfEndpointOptions.defaults();
        RxperfServerHandler handler = new RxperfServerHandler(true, line -> { });
        try (PerfServerTransport server = f.newServer(o); PerfClientTransport client = f.newClient(o)) {
            int port = server.start(new InetSocketAddress("127.0.0.1", 0), SVC, handler);
            RxperfRequest rpc = new RxperfRequest(RxperfCommand.RPC, 0, 4, 300, 524288, 524288, null);
            ClientDriver driver = new ClientDriver(rpc, 8, 50, true, true, System::nanoTime);
            RunResult r = driver.run(client, new InetSocketAddress("127.0.0.1", port), SVC, new LongAdder(), s -> { });
            assertEquals(400, r.calls());
            assertEquals(400L * 304, r.payloadBytes());
            assertEquals(400, r.latencyNanos().getTotalCount());
            assertEquals(400, handler.calls());
            assertEquals(0, handler.aborts());
        }
    }
}
