// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.rx4j.counters.RxCounter;
import org.rx4j.rpc.errors.RxException;
import org.rx4j.testing.LeakCheckExtension;

/**
 * {@link RxEndpoint.Builder#callbacksOnEventLoop()} over real loopback sockets: async call futures complete on the
 * client's event loop thread, a call started from a completion runs (a chain of calls driven from the loop, as
 * rxperf's client does: exact count, every reply), and a server abort completes the future with its code.
 */
@Timeout(60)
@ExtendWith(LeakCheckExtension.class)
class CallbacksOnLoopTest {
    static final int SERVICE = 4567;
    static final int OP_NEXT = 1;
    static final int OP_FAIL = 2;

    RxEndpoint server;
    RxEndpoint client;

    @BeforeEach
    void start() throws Exception {
        RxService service = RxService.builder(SERVICE)
                .async(OP_NEXT, req -> CompletableFuture.completedFuture(new byte[] {(byte) (req.arguments()[0] + 1)}))
                .async(OP_FAIL, req -> CompletableFuture.failedFuture(RxException.local(4714, "no")))
                .build();
        server = RxEndpoint.builder().bind(new InetSocketAddress("127.0.0.1", 0)).service(service).open();
        client = RxEndpoint.builder().bind(new InetSocketAddress("127.0.0.1", 0)).callbacksOnEventLoop().open();
    }

    @AfterEach
    void stop() {
        client.close();
        server.close();
    }

    private static byte[] request(int op, int arg) {
        return new byte[] {0, 0, 0, (byte) op, (byte) arg};
    }

    /** Calls OP_NEXT with {@code n}, then again from the completion with the reply, until {@code last}. */
    private static void chain(RxConnection conn, int n, int last, List<String> seen, CompletableFuture<Integer> done) {
        CompletableFuture<byte[]> call = conn.callAsync(request(OP_NEXT, n));
        String attachedFrom = Thread.currentThread().getName();
        call.whenComplete((reply, t) -> {
            if (t != null) {
                done.completeExceptionally(t);
                return;
            }
            seen.add(attachedFrom + " -> " + Thread.currentThread().getName());
            int next = reply[0];
            if (next == last) {
                done.complete(next);
            } else {
                chain(conn, next, last, seen, done);
            }
        });
    }

    @Test
    void callsChainedFromCompletionsRunOnTheLoop() throws Exception {
        RxConnection conn = client.connect(server.localAddress(), SERVICE);
        List<String> seen = new CopyOnWriteArrayList<>();
        CompletableFuture<Integer> done = new CompletableFuture<>();
        chain(conn, 0, 100, seen, done);
        assertEquals(100, done.get(30, TimeUnit.SECONDS));
        assertEquals(100, seen.size(), "one completion per call");
        // whenComplete attached to a future that is already complete runs at once in the attaching thread
        // (CompletableFuture's rule): a completion attached from this test thread may run here, and then starts
        // the next call from here too (seen twice in a row on a loaded machine). Every completion attached from
        // the loop must run on the loop, and once the chain reaches the loop it stays there.
        List<String> fromLoop = seen.stream().filter(e -> e.startsWith("rx4j-")).toList();
        assertTrue(fromLoop.size() >= 50, "the chain reached the loop: " + seen);
        assertEquals(1, fromLoop.stream().distinct().count(), "all on the one loop: " + fromLoop);
        String[] pair = fromLoop.get(0).split(" -> ");
        assertEquals(pair[0], pair[1], "attached on the loop, ran on the loop");
        assertEquals(100, server.statistics().totals().get(RxCounter.CALLS_EXECUTED), "exactly the chained calls reached the server");
    }

    @Test
    void abortCompletesTheFutureWithItsCodeOnTheLoop() throws Exception {
        RxConnection conn = client.connect(server.localAddress(), SERVICE);
        List<String> seen = new CopyOnWriteArrayList<>();
        // The failing call is started, and its handler attached, from a completion on the loop: attached from this
        // thread to a future that is already complete, the handler would run here (CompletableFuture's rule).
        Throwable t = conn.callAsync(request(OP_NEXT, 0))
                .thenCompose(first -> conn.callAsync(request(OP_FAIL, 0)).handle((r, e) -> {
                    seen.add(Thread.currentThread().getName());
                    return e;
                })).get(30, TimeUnit.SECONDS);
        RxException rx = assertInstanceOf(RxException.class, t instanceof java.util.concurrent.CompletionException
                ? t.getCause() : t);
        assertEquals(4714, rx.code());
        assertTrue(rx.remote());
        assertTrue(seen.get(0).startsWith("rx4j-"), seen.get(0));
    }
}
