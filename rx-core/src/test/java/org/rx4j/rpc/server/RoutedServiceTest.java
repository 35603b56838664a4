// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc.server;

import java.io.ByteArrayOutputStream;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.rx4j.rpc.RxAsyncHandler;
import org.rx4j.rpc.RxCall;
import org.rx4j.rpc.RxCallHandler;
import org.rx4j.rpc.RxCallRouter;
import org.rx4j.rpc.RxConnection;
import org.rx4j.rpc.RxEndpoint;
import org.rx4j.rpc.RxService;
import org.rx4j.rpc.errors.RxException;
import org.rx4j.testing.LeakCheckExtension;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A whole-stream service with an {@link RxCallRouter} over real loopback sockets: which calls the router sends to
 * the event loop and which to the blocking handler, what each sees of the request (every byte, in order, however
 * the prefix was split), what the router is told, and how failures on either side reach the caller as their Rx
 * abort codes. Every test also checks that no buffer leaked.
 */
@Timeout(60)
@ExtendWith(LeakCheckExtension.class)
class RoutedServiceTest {
    static final int SERVICE = 3456;
    /** Requests starting with this word go to the loop; others to the blocking handler. */
    static final int LOOP = 7;
    /** Requests starting with this word make the async handler fail with code 4712. */
    static final int LOOP_FAIL = 8;
    /** Requests starting with this word make the router throw code 4713. */
    static final int ROUTER_FAIL = 9;
    static final int PREFIX = 12;

    RxEndpoint server;
    RxEndpoint client;
    /** What the router was asked: "length/whole", in call order. */
    final List<String> routed = new CopyOnWriteArrayList<>();
    /** Which side served each call: "loop:firstWord" or "blocking". */
    final List<String> served = new CopyOnWriteArrayList<>();

    @BeforeEach
    void start() throws Exception {
        RxAsyncHandler loop = req -> {
            served.add("loop:" + req.opcode());
            if (req.opcode() == LOOP_FAIL) {
                return CompletableFuture.failedFuture(RxException.local(4712, "refused on the loop"));
            }
            byte[] reply = new byte[req.arguments().length + 1];
            reply[0] = 'L';
            System.arraycopy(req.arguments(), 0, reply, 1, req.arguments().length);
            return CompletableFuture.completedFuture(reply);
        };
        RxCallHandler blocking = call -> {
            served.add("blocking");
            byte[] all = call.input().readAllBytes();
            call.output().write('B');
            call.output().write(all);
        };
        server = RxEndpoint.builder().bind(new InetSocketAddress("127.0.0.1", 0))
                .service(RxService.builder(SERVICE).wholeStream(blocking, PREFIX, (prefix, length, whole) -> {
                    routed.add(length + "/" + whole);
                    int first = ((prefix[0] & 0xFF) << 24) | ((prefix[1] & 0xFF) << 16)
                            | ((prefix[2] & 0xFF) << 8) | (prefix[3] & 0xFF);
                    if (first == ROUTER_FAIL) {
                        throw RxException.local(4713, "router refused");
                    }
                    return first == LOOP || first == LOOP_FAIL ? loop : null;
                }).build()).open();
        client = RxEndpoint.builder().bind(new InetSocketAddress("127.0.0.1", 0)).open();
    }

    @AfterEach
    void stop() {
        client.close();
        server.close();
    }

    private RxConnection connect() {
        return client.connect(server.localAddress(), SERVICE);
    }

    private static byte[] request(int first, int payloadBytes) {
        byte[] b = new byte[4 + payloadBytes];
        b[3] = (byte) first;
        for (int i = 0; i < payloadBytes; i++) {
            b[4 + i] = (byte) (i % 251);
        }
        return b;
    }

    private static byte[] reply(char side, byte[] body) {
        byte[] r = new byte[body.length + 1];
        r[0] = (byte) side;
        System.arraycopy(body, 0, r, 1, body.length);
        return r;
    }

    @Test
    void routedCallIsServedOnTheLoopWithTheWholeRequest() throws Exception {
        RxConnection conn = connect();
        byte[] small = request(LOOP, 3);
        byte[] large = request(LOOP, 20_000); // many packets after the prefix
        assertArrayEquals(reply('L', java.util.Arrays.copyOfRange(small, 4, small.length)), conn.call(small));
        assertArrayEquals(reply('L', java.util.Arrays.copyOfRange(large, 4, large.length)),
                conn.callAsync(large).get(20, TimeUnit.SECONDS));
        assertEquals(List.of("loop:7", "loop:7"), served);
        assertEquals(List.of("7/true", "12/false"), routed, "a 7-byte request is whole; the large one is not");
    }

    @Test
    void otherCallsGoToTheBlockingHandlerWithEveryByte() throws Exception {
        RxConnection conn = connect();
        byte[] small = request(1, 2);
        byte[] large = request(1, 50_000);
        assertArrayEquals(reply('B', small), conn.call(small));
        assertArrayEquals(reply('B', large), conn.call(large));
        assertEquals(List.of("blocking", "blocking"), served);
    }

    @Test
    void requestShorterThanFourBytesGoesToTheBlockingHandlerUnasked() throws Exception {
        RxConnection conn = connect();
        assertArrayEquals(reply('B', new byte[] {1, 2}), conn.call(new byte[] {1, 2}));
        assertArrayEquals(reply('B', new byte[0]), conn.call(new byte[0]));
        assertEquals(List.of(), routed);
        assertEquals(List.of("blocking", "blocking"), served);
    }

    @Test
    void prefixSplitOverSeveralPacketsStillRoutes() throws Exception {
        RxConnection conn = connect();
        byte[] req = request(LOOP, 30);
        ByteArrayOutputStream got = new ByteArrayOutputStream();
        try (RxCall call = conn.newCall()) {
            for (int i = 0; i < PREFIX + 2; i++) {
                call.output().write(req[i]);
                call.output().flush(); // one byte per DATA packet
            }
            call.output().write(req, PREFIX + 2, req.length - PREFIX - 2);
            call.output().close();
            got.write(call.input().readAllBytes());
        }
        assertArrayEquals(reply('L', java.util.Arrays.copyOfRange(req, 4, req.length)), got.toByteArray());
        assertEquals(List.of("12/false"), routed);
    }

    @Test
    void loopHandlerFailureReachesTheCallerAsItsCode() {
        RxConnection conn = connect();
        ExecutionException e = assertThrows(ExecutionException.class,
                () -> conn.callAsync(request(LOOP_FAIL, 0)).get(20, TimeUnit.SECONDS));
        RxException rx = (RxException) e.getCause();
        assertEquals(4712, rx.code());
        assertTrue(rx.remote());
        assertEquals(List.of("loop:8"), served);
    }

    @Test
    void routerFailureAbortsTheCallWithItsCode() throws Exception {
        RxConnection conn = connect();
        RxException rx = assertThrows(RxException.class, () -> conn.call(request(ROUTER_FAIL, 1)));
        assertEquals(4713, rx.code());
        assertTrue(rx.remote());
        assertEquals(List.of(), served);
        // the connection is still good after its call was aborted
        assertArrayEquals(reply('L', new byte[0]), conn.call(request(LOOP, 0)));
    }

    @Test
    void prefixSizeIsChecked() {
        RxCallHandler h = call -> { };
        RxCallRouter r = (p, l, w) -> null;
        assertThrows(IllegalArgumentException.class, () -> server.registerService(RxService.builder(SERVICE + 1)
                .wholeStream(h, 3, r).build()));
        assertThrows(IllegalArgumentException.class, () -> RxEndpoint.builder().service(RxService.builder(SERVICE + 1)
                .wholeStream(h, 65537, r).build()));
    }
}
