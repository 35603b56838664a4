// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.rx4j.engine.call.CallOrigin;
import org.rx4j.rpc.runtime.CallHooks;
import org.rx4j.rpc.runtime.EndpointRuntime;

/**
 * The per-call hooks cost nothing when unused (docs/embedding.md "Call logs"): with no interceptor and the call log
 * off (the test binding logs INFO and up), starting a call's hooks allocates nothing, counted with the JVM's
 * per-thread allocation counter (bytes, not time).
 */
class CallHooksTest {
    static final int CALLS = 100_000;

    RxEndpoint endpoint;

    @BeforeEach
    void open() throws Exception {
        endpoint = RxEndpoint.builder().bind(new InetSocketAddress("127.0.0.1", 0)).probeUnreachable(false).open();
    }

    @AfterEach
    void close() {
        endpoint.close(0);
    }

    @Test
    void unusedHooksAllocateNothingPerCall() throws Exception {
        assertFalse(CallHooks.CALLS.isDebugEnabled(), "the call log is off by default");
        // com.sun.management's counter, by reflection: the test module does not read jdk.management
        Object threads = ManagementFactory.getThreadMXBean();
        java.lang.reflect.Method counter = Class.forName("com.sun.management.ThreadMXBean")
                .getMethod("getCurrentThreadAllocatedBytes");
        EndpointRuntime rt = endpoint.runtime();
        CallOrigin origin = new CallOrigin(new InetSocketAddress("127.0.0.1", 7000), 1, 4, 9, 0, null);
        RxConnection conn = endpoint.connect(new InetSocketAddress("127.0.0.1", 7000), 9);
        RxCallContext ctx = new RxCallContext();
        int made = 0;
        for (int i = 0; i < 1000; i++) { // warm up: class loading and the counter's own first use
            made += CallHooks.server(rt, origin, i, ctx) == null ? 0 : 1;
            made += CallHooks.client(rt, conn, i, ctx) == null ? 0 : 1;
        }
        counter.invoke(threads);
        long before = (long) counter.invoke(threads);
        for (int i = 0; i < CALLS; i++) {
            made += CallHooks.server(rt, origin, i, ctx) == null ? 0 : 1;
            made += CallHooks.client(rt, conn, i, ctx) == null ? 0 : 1;
        }
        long allocated = (long) counter.invoke(threads) - before;
        assertEquals(0, made, "no hooks without interceptors and log");
        // one object per call would be >= 16 bytes x 200,000; allow the counter's own few bytes
        assertTrue(allocated < 1024, allocated + " bytes allocated for " + 2 * CALLS + " unused hooks");
    }

    @Test
    void anInterceptorMakesHooksThatEndOnce() throws Exception {
        int[] ends = new int[1];
        try (RxEndpoint e = RxEndpoint.builder().bind(new InetSocketAddress("127.0.0.1", 0))
                .serverInterceptor(call -> (code, ns) -> ends[0] += code).open()) {
            CallOrigin origin = new CallOrigin(new InetSocketAddress("127.0.0.1", 7000), 1, 4, 9, 0, null);
            CallHooks h = CallHooks.server(e.runtime(), origin, RxCallInfo.NO_OPCODE, new RxCallContext());
            assertNotNull(h);
            assertEquals(0, h.admit());
            h.ended(-6, 0);
            h.ended(-3, 0);
            assertEquals(-6, ends[0], "only the first end counts");
        }
        assertNull(CallHooks.server(endpoint.runtime(),
                new CallOrigin(new InetSocketAddress("127.0.0.1", 7000), 1, 4, 9, 0, null), 1, new RxCallContext()));
    }
}
