// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.rx4j.counters.RxCounter;
import org.rx4j.rpc.xdr.XdrReader;
import org.rx4j.rpc.xdr.XdrSide;
import org.rx4j.rpc.xdr.XdrWriter;
import org.rx4j.testing.LeakCheckExtension;

/**
 * Split calls, shaped as AFS's StoreData and FetchData (rxgen "split" procedures): XDR arguments, then 100 MiB
 * of bulk data streamed in the same call, then XDR results, over real loopback sockets. The bulk bytes carry
 * the pattern "byte k is k mod 251" and are checked byte by byte. Buffers are counted from the start of each
 * test to after both endpoints closed (not with {@code @ExtendWith(LeakCheckExtension.class)}: its paranoid
 * access tracking would make 200 MiB of packets crawl).
 */
@Timeout(180)
class SplitCallTest {
    static final int SERVICE = 1;
    static final int OP_STORE = 133;
    static final int OP_FETCH = 130;
    static final long BULK = 100L << 20;
    static final int STATUS_OK = 0x600d;

    RxEndpoint server;
    RxEndpoint client;

    @BeforeEach
    void start() throws Exception {
        LeakCheckExtension.resetLeakCount();
        RxService service = RxService.builder(SERVICE)
                .blocking(OP_STORE, (call, op) -> {
                    XdrReader args = new XdrReader(call.input(), XdrSide.SERVER);
                    int fileId = args.readInt();
                    long length = args.readLong();
                    long[] check = readPattern(call.input(), length);
                    XdrWriter results = new XdrWriter(call.output(), XdrSide.SERVER);
                    results.writeInt(fileId);
                    results.writeLong(check[0]);
                    results.writeLong(check[1]);
                    results.writeInt(STATUS_OK);
                })
                .blocking(OP_FETCH, (call, op) -> {
                    XdrReader args = new XdrReader(call.input(), XdrSide.SERVER);
                    int fileId = args.readInt();
                    long length = args.readLong();
                    XdrWriter out = new XdrWriter(call.output(), XdrSide.SERVER);
                    out.writeLong(length); // FetchData sends the length before the data
                    writePattern(call.output(), length);
                    out.writeInt(fileId);
                    out.writeInt(STATUS_OK);
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
        LeakCheckExtension.assertNoLeaks();
    }

    static void writePattern(OutputStream out, long length) throws IOException {
        byte[] buf = new byte[65536];
        for (long sent = 0; sent < length; ) {
            int n = (int) Math.min(buf.length, length - sent);
            for (int i = 0; i < n; i++) {
                buf[i] = (byte) ((sent + i) % 251);
            }
            out.write(buf, 0, n);
            sent += n;
        }
    }

    /** @return {bytes read, bytes off the pattern}; reads exactly {@code length} bytes unless the stream ends */
    static long[] readPattern(InputStream in, long length) throws IOException {
        byte[] buf = new byte[65536];
        long got = 0;
        long bad = 0;
        while (got < length) {
            int n = in.read(buf, 0, (int) Math.min(buf.length, length - got));
            if (n < 0) {
                break;
            }
            for (int i = 0; i < n; i++) {
                if (buf[i] != (byte) ((got + i) % 251)) {
                    bad++;
                }
            }
            got += n;
        }
        return new long[] {got, bad};
    }

    @Test
    void storeDataStreams100MiBBetweenArgumentsAndResults() throws Exception {
        RxConnection conn = client.connect(server.localAddress(), SERVICE);
        try (RxCall call = conn.newCall()) {
            XdrWriter args = new XdrWriter(call.output(), XdrSide.CLIENT);
            args.writeInt(OP_STORE);
            args.writeInt(77);
            args.writeLong(BULK);
            writePattern(call.output(), BULK);
            call.output().close();
            XdrReader results = new XdrReader(call.input(), XdrSide.CLIENT);
            assertEquals(77, results.readInt());
            assertEquals(BULK, results.readLong(), "bytes the server read");
            assertEquals(0, results.readLong(), "bytes off the pattern at the server");
            assertEquals(STATUS_OK, results.readInt());
            assertEquals(-1, call.input().read(), "nothing after the results");
        }
        assertTrue(client.statistics().totals().get(RxCounter.BYTES_SENT) > BULK);
    }

    @Test
    void fetchDataStreams100MiBBetweenArgumentsAndResults() throws Exception {
        RxConnection conn = client.connect(server.localAddress(), SERVICE);
        try (RxCall call = conn.newCall()) {
            XdrWriter args = new XdrWriter(call.output(), XdrSide.CLIENT);
            args.writeInt(OP_FETCH);
            args.writeInt(78);
            args.writeLong(BULK);
            // No explicit close: the first read ends the request, as rx_Read does.
            XdrReader in = new XdrReader(call.input(), XdrSide.CLIENT);
            assertEquals(BULK, in.readLong());
            long[] check = readPattern(call.input(), BULK);
            assertEquals(BULK, check[0]);
            assertEquals(0, check[1], "bytes off the pattern at the client");
            assertEquals(78, in.readInt());
            assertEquals(STATUS_OK, in.readInt());
            assertEquals(-1, call.input().read());
        }
        assertTrue(server.statistics().totals().get(RxCounter.BYTES_SENT) > BULK);
    }
}
