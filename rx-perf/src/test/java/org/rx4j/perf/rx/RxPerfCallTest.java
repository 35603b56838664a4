package org.rx4j.perf.rx;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.OutputStream;
import java.net.InetSocketAddress;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.rx4j.perf.transport.PerfCall;
import org.rx4j.perf.transport.PerfCallException;
import org.rx4j.perf.transport.PerfCallHandler;
import org.rx4j.perf.transport.PerfClientTransport;
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
}
