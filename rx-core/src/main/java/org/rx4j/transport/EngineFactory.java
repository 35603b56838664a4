// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.transport;

import io.netty.buffer.ByteBufAllocator;
import org.rx4j.engine.output.PacketSink;
import org.rx4j.engine.RxEngine;

/**
 * Builds the {@link RxEngine} a transport drives: the caller (e.g. {@code org.rx4j.rpc.RxEndpoint}) chooses the
 * engine's configuration, random seed and setup (services, debug responder), the transport supplies where the
 * engine's output goes. Called once, on the transport's event loop, before any datagram is read; the engine it
 * returns is then touched only on that loop.
 */
@FunctionalInterface
public interface EngineFactory {
    /**
     * @param sink where the engine writes its packets (the channel's encoder); loop-confined
     * @param alloc the channel's buffer allocator, for the engine's own buffers
     * @param now the transport's clock at creation, ns (the same clock as {@link RxTransport#now()})
     * @return the engine, never null
     * @throws RuntimeException any failure; {@link RxTransport#bind} then closes the socket and rethrows it
     */
    RxEngine create(PacketSink sink, ByteBufAllocator alloc, long now);
}
