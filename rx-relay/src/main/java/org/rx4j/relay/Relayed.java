// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.relay;

import io.netty.buffer.ByteBuf;
import org.rx4j.relay.core.DatagramOps;

/**
 * A datagram in the delay line: its payload (a buffer of exactly its size, one reference owned by this handle)
 * and the client flow it belongs to.
 */
final class Relayed {
    /** Duplicates with a retained duplicate of the payload; discards by releasing it. */
    static final DatagramOps<Relayed> OPS = new DatagramOps<>() {
        @Override
        public Relayed duplicate(Relayed d) {
            return new Relayed(d.payload.retainedDuplicate(), d.flow);
        }

        @Override
        public void discard(Relayed d) {
            d.payload.release();
        }
    };

    final ByteBuf payload;
    final ClientFlow flow;

    Relayed(ByteBuf payload, ClientFlow flow) {
        this.payload = payload;
        this.flow = flow;
    }
}
