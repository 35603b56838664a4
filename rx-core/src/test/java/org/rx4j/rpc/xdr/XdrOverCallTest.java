// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc.xdr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.rx4j.counters.RxCounter;
import org.rx4j.rpc.RxConnection;
import org.rx4j.rpc.RxEndpoint;
import org.rx4j.rpc.RxService;
import org.rx4j.rpc.errors.RxException;
import org.rx4j.testing.LeakCheckExtension;
import org.rx4j.wire.AbortCodes;

/**
 * XDR over real calls with hostile lengths: a server that cannot decode the arguments aborts with
 * RXGEN_SS_UNMARSHAL (−453), a client that cannot decode the results fails with RXGEN_CC_UNMARSHAL (−451),
 * and neither allocates what the length claims (the test JVM has a 2 GiB heap; the lengths claim up to 4 GiB).
 */
@Timeout(60)
@ExtendWith(LeakCheckExtension.class)
class XdrOverCallTest {
    static final int SERVICE = 451;
    static final int OP_NAME = 1;
    static final int OP_BLOB = 2;
    static final int OP_LIST = 3;
    static final int OP_ASYNC_NAME = 4;
    static final int OP_HOSTILE_REPLY = 5;

    RxEndpoint server;
    RxEndpoint client;
    RxConnection conn;

    @BeforeEach
    void start() throws Exception {
        RxService service = RxService.builder(SERVICE)
                .blocking(OP_NAME, (call, op) -> {
                    String name = new XdrReader(call.input(), XdrSide.SERVER).readString(64);
                    new XdrWriter(call.output(), XdrSide.SERVER).writeInt(name.length());
                })
                .blocking(OP_BLOB, (call, op) -> {
                    byte[] blob = new XdrReader(call.input(), XdrSide.SERVER).readOpaque(XdrReader.MAX_LENGTH);
                    new XdrWriter(call.output(), XdrSide.SERVER).writeInt(blob.length);
                })
                .blocking(OP_LIST, (call, op) -> {
                    List<Integer> list = new XdrReader(call.input(), XdrSide.SERVER).readArray(1000, XdrCodec.INT32);
                    new XdrWriter(call.output(), XdrSide.SERVER).writeInt(list.size());
                })
                .async(OP_ASYNC_NAME, req -> {
                    String name = req.xdr().readString(64);
                    return CompletableFuture.completedFuture(
                            org.rx4j.rpc.xdr.XdrMarshaller.toBytes(XdrSide.SERVER, w -> w.writeInt(name.length())));
                })
                .blocking(OP_HOSTILE_REPLY, (call, op) -> {
                    XdrWriter w = new XdrWriter(call.output(), XdrSide.SERVER);
                    w.writeInt(new XdrReader(call.input(), XdrSide.SERVER).readInt()); // the claimed length
                    w.writeLong(0x0102030405060708L);
                })
                .build();
        server = RxEndpoint.builder().bind(new InetSocketAddress("127.0.0.1", 0)).open();
        server.registerService(service);
        client = RxEndpoint.builder().bind(new InetSocketAddress("127.0.0.1", 0)).open();
        conn = client.connect(server.localAddress(), SERVICE);
    }

    @AfterEach
    void stop() {
        client.close();
        server.close();
    }

    private static void assertRemote(int code, RxException e) {
        assertEquals(code, e.code(), e.getMessage());
        assertTrue(e.remote(), "the server sent the abort");
    }

    @Test
    void wellFormedArgumentsStillWork() throws Exception {
        assertEquals(5, (int) conn.call(OP_NAME, w -> w.writeString("hello", 64), XdrReader::readInt));
        assertEquals(3, (int) conn.call(OP_BLOB, w -> w.writeOpaque(new byte[3], 100), XdrReader::readInt));
        assertEquals(2, (int) conn.call(OP_LIST, w -> w.writeArray(List.of(1, 2), 1000, XdrCodec.INT32),
                XdrReader::readInt));
        assertEquals(5, (int) conn.callAsync(OP_ASYNC_NAME, w -> w.writeString("hello", 64), XdrReader::readInt)
                .get(20, TimeUnit.SECONDS));
    }

    @ParameterizedTest(name = "string length {0}")
    @ValueSource(longs = {0xFFFFFFFFL, 0x7FFFFFFFL, 0x80000000L, 65})
    void hostileStringLengthAbortsWithServerUnmarshal(long length) {
        RxException e = assertThrows(RxException.class,
                () -> conn.call(OP_NAME, w -> w.writeUnsignedInt(length), XdrReader::readInt));
        assertRemote(AbortCodes.RXGEN_SS_UNMARSHAL, e);
    }

    @Test
    void hostileOpaqueLengthWithFewBytesAbortsWithServerUnmarshal() {
        // Declared maximum is the JVM's largest array: only the bytes that really arrive are allocated.
        RxException e = assertThrows(RxException.class, () -> conn.call(OP_BLOB, w -> {
            w.writeUnsignedInt(0x7FFFFF00L);
            w.writeLong(1);
        }, XdrReader::readInt));
        assertRemote(AbortCodes.RXGEN_SS_UNMARSHAL, e);
    }

    @Test
    void hostileArrayCountAbortsWithServerUnmarshal() {
        RxException e = assertThrows(RxException.class,
                () -> conn.call(OP_LIST, w -> w.writeUnsignedInt(0xFFFFFFFFL), XdrReader::readInt));
        assertRemote(AbortCodes.RXGEN_SS_UNMARSHAL, e);
    }

    @Test
    void asyncHandlerUnmarshalFailureAbortsWithServerUnmarshal() {
        ExecutionException e = assertThrows(ExecutionException.class, () -> conn.callAsync(OP_ASYNC_NAME,
                w -> w.writeUnsignedInt(0xFFFFFFFFL), XdrReader::readInt).get(20, TimeUnit.SECONDS));
        assertRemote(AbortCodes.RXGEN_SS_UNMARSHAL, assertInstanceOf(RxException.class, e.getCause()));
    }

    @ParameterizedTest(name = "reply length {0}")
    @ValueSource(ints = {0x7FFFFFFF, -1, 1 << 30})
    void hostileResultLengthFailsWithClientUnmarshal(int claimed) throws Exception {
        RxException e = assertThrows(RxException.class,
                () -> conn.call(OP_HOSTILE_REPLY, w -> w.writeInt(claimed), r -> r.readOpaque(XdrReader.MAX_LENGTH)));
        assertEquals(AbortCodes.RXGEN_CC_UNMARSHAL, e.code());
        assertFalse(e.remote());

        ExecutionException async = assertThrows(ExecutionException.class, () -> conn.callAsync(OP_HOSTILE_REPLY,
                w -> w.writeInt(claimed), r -> r.readString(1024)).get(20, TimeUnit.SECONDS));
        RxException rx = assertInstanceOf(RxException.class, async.getCause());
        assertEquals(AbortCodes.RXGEN_CC_UNMARSHAL, rx.code());
        assertFalse(rx.remote());
    }

    @Test
    void clientMarshalFailureNeverReachesTheServer() throws Exception {
        RxException e = assertThrows(RxException.class,
                () -> conn.call(OP_NAME, w -> w.writeString("x".repeat(65), 64), XdrReader::readInt));
        assertEquals(AbortCodes.RXGEN_CC_MARSHAL, e.code());
        assertFalse(e.remote());
        ExecutionException async = assertThrows(ExecutionException.class, () -> conn.callAsync(OP_NAME,
                w -> w.writeString("x".repeat(65), 64), XdrReader::readInt).get(20, TimeUnit.SECONDS));
        assertEquals(AbortCodes.RXGEN_CC_MARSHAL, ((RxException) async.getCause()).code());
        assertEquals(0, server.statistics().totals().get(RxCounter.CALLS_EXECUTED), "no call reached the server");
    }
}
