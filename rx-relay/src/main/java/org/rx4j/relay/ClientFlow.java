// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.relay;

import io.netty.buffer.ByteBuf;
import io.netty.channel.socket.DatagramChannel;
import java.net.InetSocketAddress;
import java.util.ArrayDeque;

/**
 * One client source address and the relay's upstream socket for it (so the target sees one peer per client).
 * Touched only on the relay's event loop.
 */
final class ClientFlow {
    /** Upstream payloads held while the socket is still binding; beyond this many they are dropped. */
    static final int MAX_HELD_WHILE_BINDING = 4096;

    final InetSocketAddress client;
    DatagramChannel channel;
    /** True once the upstream socket is bound (writes before that would fail). */
    boolean ready;
    boolean closed;
    /** True while the upstream socket has unflushed writes. */
    boolean dirty;
    /** Last datagram in either direction, ns. */
    long lastActiveNs;
    /** The kernel's receive-drop count of the upstream socket at the last probe. */
    long kernelDrops;
    final ArrayDeque<ByteBuf> heldWhileBinding = new ArrayDeque<>();

    ClientFlow(InetSocketAddress client, long nowNs) {
        this.client = client;
        this.lastActiveNs = nowNs;
    }

    /** Releases payloads still held (the flow is closing). */
    void releaseHeld() {
        ByteBuf b;
        while ((b = heldWhileBinding.poll()) != null) {
            b.release();
        }
    }
}
