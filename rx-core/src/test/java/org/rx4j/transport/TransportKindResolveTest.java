// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.channel.epoll.Epoll;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import org.junit.jupiter.api.Test;
import org.rx4j.config.RxConfig;
import org.rx4j.config.TransportKind;
import org.rx4j.engine.RxEngine;

/** {@link TransportKind#AUTO}: parsed from "auto", always available, and running epoll exactly where epoll loads. */
class TransportKindResolveTest {
    @Test
    void autoParsesAndResolvesToEpollWhereItLoadsElseNio() {
        assertEquals(TransportKind.AUTO, TransportKind.parse("Auto"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> TransportKind.parse("io"));
        assertTrue(e.getMessage().contains("nio, epoll or auto"), e.getMessage());
        assertTrue(NettyTransports.isAvailable(TransportKind.AUTO));
        assertEquals(Epoll.isAvailable() ? TransportKind.EPOLL : TransportKind.NIO,
                NettyTransports.resolve(TransportKind.AUTO));
        assertEquals(TransportKind.NIO, NettyTransports.resolve(TransportKind.NIO));
        assertEquals(TransportKind.EPOLL, NettyTransports.resolve(TransportKind.EPOLL));
    }

    /** Linux reports a doubled buffer size; NIO (the JDK) halves it, epoll (Netty) does not: both read as asked. */
    @Test
    void theGrantedReceiveBufferReadsTheSameOnNioAndEpoll() throws Exception {
        RxConfig config = RxConfig.builder().udpBufferBytes(65536).build(); // below any kernel's rmem_max
        InetSocketAddress loopback = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
        for (TransportKind kind : new TransportKind[] {TransportKind.NIO, TransportKind.EPOLL}) {
            if (!NettyTransports.isAvailable(kind)) {
                continue;
            }
            try (RxTransport t = RxTransport.bind(config, loopback, kind,
                    (sink, alloc, now) -> new RxEngine(config, sink, alloc, 1, now))) {
                assertEquals(65536, t.effectiveReceiveBuffer(), kind.name());
            }
        }
    }

    @Test
    void aTransportBoundWithAutoReportsWhatRuns() throws Exception {
        InetSocketAddress loopback = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
        try (RxTransport t = RxTransport.bind(RxConfig.defaults(), loopback, TransportKind.AUTO,
                (sink, alloc, now) -> new RxEngine(RxConfig.defaults(), sink, alloc, 1, now))) {
            assertEquals(NettyTransports.resolve(TransportKind.AUTO), t.kind());
        }
    }
}
