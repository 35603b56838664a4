// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.InputStream;
import java.net.InetSocketAddress;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.rx4j.rpc.stream.CallStreams;
import org.rx4j.testing.LeakCheckExtension;

/**
 * A call's input stream hands a bulk reader what has arrived in large pieces: one {@code read} copies every staged
 * packet that fits (not one packet's worth), and {@code readNBytes} waits for all it asks for, including more than
 * the bytes the stream stages for a reader at once (half of them per wake-up), over real loopback sockets.
 */
@Timeout(60)
@ExtendWith(LeakCheckExtension.class)
class CallInputBatchTest {
    static final int SERVICE = 611;
    /** Replies with as many bytes as the request's 4-byte count says, byte k being k mod 251. */
    static final int OP_BYTES = 1;

    RxEndpoint server;
    RxEndpoint client;

    @BeforeEach
    void start() throws Exception {
        RxService service = RxService.builder(SERVICE)
                .blocking(OP_BYTES, (call, op) -> {
                    int n = new java.io.DataInputStream(call.input()).readInt();
                    SplitCallTest.writePattern(call.output(), n);
                })
                .build();
        server = RxEndpoint.builder().bind(new InetSocketAddress("127.0.0.1", 0)).open();
        server.registerService(service);
        client = RxEndpoint.builder().bind(new InetSocketAddress("127.0.0.1", 0)).open();
    }

    @AfterEach
    void stop() {
        client.close();
        server.close();
    }

    private RxCall ask(int bytes) throws Exception {
        RxCall call = client.connect(server.localAddress(), SERVICE).newCall();
        java.io.DataOutputStream out = new java.io.DataOutputStream(call.output());
        out.writeInt(OP_BYTES);
        out.writeInt(bytes);
        call.output().close();
        return call;
    }

    @Test
    void oneReadTakesEveryStagedPacketThatFits() throws Exception {
        int bytes = 200_000; // many packets, less than what the stream stages for its reader
        try (RxCall call = ask(bytes)) {
            call.completion().get(); // the whole reply has arrived and waits for the reader
            InputStream in = call.input();
            byte[] buf = new byte[bytes + 1000];
            assertEquals(bytes, in.read(buf), "one read returns all that arrived");
            for (int i = 0; i < bytes; i++) {
                assertEquals((byte) (i % 251), buf[i], "byte " + i);
            }
            assertEquals(-1, in.read(buf));
        }
    }

    @Test
    void readNBytesWaitsForMoreThanTheStagingLimit() throws Exception {
        int bytes = 4 * CallStreams.INBOX_LIMIT + 12_345;
        try (RxCall call = ask(bytes)) {
            InputStream in = call.input();
            byte[] buf = new byte[bytes + 1000];
            int first = 3 * CallStreams.INBOX_LIMIT;
            assertEquals(first, in.readNBytes(buf, 0, first), "all it asked for, six times the wake-up amount");
            assertEquals(bytes - first, in.readNBytes(buf, first, buf.length - first), "the rest, up to the end");
            for (int i = 0; i < bytes; i++) {
                assertEquals((byte) (i % 251), buf[i], "byte " + i);
            }
            assertEquals(0, in.readNBytes(buf, 0, 10), "nothing after the end");
        }
    }
}
