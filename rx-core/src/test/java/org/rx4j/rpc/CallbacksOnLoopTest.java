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
        conn.callAsync(request(OP_NEXT, n)).whenComplete((reply, t) -> {
            if (t != null) {
                done.completeExceptionally(t);
                return;
            }
            seen.add(Thread.currentThread().getName());
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
        // The first completion may run on this thread: whenComplete attached to a future that is already complete
        // runs at once in the attaching thread (CompletableFuture's rule). Every later call is started, and its
        // completion attached, from a completion, so those must all run on the loop.
        List<String> chained = seen.subList(1, seen.size());
        assertEquals(1, chained.stream().distinct().count(), "all on one thread: " + chained);
        assertTrue(chained.get(0).startsWith("rx4j-"), "the endpoint's event loop: " + chained.get(0));
        assertEquals(100, server.statistics().callsExecuted(), "exactly the chained calls reached the server");
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
