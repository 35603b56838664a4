// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.rx4j.config.TransportKind;
import org.rx4j.config.RxConfig;
import org.rx4j.engine.RxEngine;

/** Binding: the caller builds the engine on the loop, on the clock it chose; failures say what failed. */
@Timeout(30)
class RxTransportBindTest {
    private static final RxConfig CONFIG = RxConfig.defaults();
    private static final InetSocketAddress ANY_LOOPBACK = new InetSocketAddress("127.0.0.1", 0);

    @Test
    void theEngineIsBuiltOnTheLoopOnTheInjectedClock() throws Exception {
        AtomicLong clock = new AtomicLong(5_000_000_000L);
        long[] createdAt = {-1};
        boolean[] onLoop = {false};
        try (RxTransport t = RxTransport.bind(CONFIG, ANY_LOOPBACK, TransportKind.NIO, clock::get,
                (sink, alloc, now) -> {
                    createdAt[0] = now;
                    onLoop[0] = Thread.currentThread().getName().startsWith("rx4j-nio");
                    return new RxEngine(CONFIG, sink, alloc, 1, now);
                })) {
            assertEquals(5_000_000_000L, createdAt[0], "the factory got the injected clock's time");
            assertTrue(onLoop[0], "the engine is built on the event loop");
            clock.set(7_000_000_000L);
            assertEquals(7_000_000_000L, t.now(), "now() reads the injected clock");
            assertEquals(Boolean.TRUE, t.submit(e -> t.loop().inEventLoop()).join());
        }
    }

    @Test
    void anEngineFactoryFailureIsRethrownAsItIs() throws Exception {
        IllegalArgumentException boom = new IllegalArgumentException("no engine today");
        IllegalArgumentException thrown = assertThrows(IllegalArgumentException.class,
                () -> RxTransport.bind(CONFIG, ANY_LOOPBACK, TransportKind.NIO, (sink, alloc, now) -> {
                    throw boom;
                }));
        assertSame(boom, thrown);
    }

    @Test
    void aPortInUseIsAnIoExceptionNamingTheAddress() throws Exception {
        try (DatagramSocket taken = new DatagramSocket(ANY_LOOPBACK)) {
            InetSocketAddress addr = new InetSocketAddress("127.0.0.1", taken.getLocalPort());
            IOException e = assertThrows(IOException.class, () -> RxTransport.bind(CONFIG, addr, TransportKind.NIO,
                    (sink, alloc, now) -> new RxEngine(CONFIG, sink, alloc, 1, now)));
            assertTrue(e.getMessage().contains("127.0.0.1:" + taken.getLocalPort()), e.getMessage());
        }
    }
}
