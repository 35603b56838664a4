// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.transport;

import io.netty.util.concurrent.FastThreadLocal;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import org.rx4j.wire.PacketFlyweights;
import org.rx4j.wire.RxConstants;
import org.rx4j.wire.RxPacket;

/**
 * The decoder → engine hand-off: the packets of one received datagram (one packet, or the 2..46 sub-packets
 * of a jumbogram, rx-wire-facts.md §4) and who sent it. {@link DatagramDecoder} fires one per well-formed
 * datagram; {@link EngineHandler} passes its contents to {@link org.rx4j.engine.RxEngine#onDatagram}.
 *
 * <p>A per-event-loop flyweight (no allocation per datagram): the decoder reuses one instance and its packet list per
 * thread ({@link #acquire}), so the hand-off allocates nothing per datagram; so are its DATA and ACK packets and
 * their headers ({@link PacketFlyweights}). Nothing may keep a reference to it or to those packet objects after
 * {@code channelRead} returns: the next datagram on that thread overwrites them (a DATA payload reference is the
 * holder's to keep or release). (A decode nested inside
 * another one's {@code channelRead} on the same thread gets a fresh instance.)
 *
 * <p>Ownership: the packets (DATA packets hold retained slices of the datagram's buffer) belong to whoever
 * holds this object; the engine handler hands them to the engine, which then owns them. Anyone else that
 * receives it (e.g. a test reading the decoder's output) calls {@link #release()}.
 */
final class InboundDatagram {
    private static final FastThreadLocal<InboundDatagram> PER_THREAD = new FastThreadLocal<>() {
        @Override
        protected InboundDatagram initialValue() {
            return new InboundDatagram();
        }
    };

    private InetSocketAddress sender;
    // Sized for a full jumbogram once, so that it never grows.
    private final List<RxPacket> packets = new ArrayList<>(RxConstants.MAX_JUMBO_PACKETS);
    /** The DATA/ACK packet objects the decoder fills for this instance's datagram (reused, not allocated). */
    private final PacketFlyweights flyweights = new PacketFlyweights();
    /** True while this instance is being handed down the pipeline (a nested decode must not reuse it). */
    private boolean inUse;

    private InboundDatagram() {
    }

    /**
     * @return this thread's instance, emptied (its earlier packets were handed on, so they are not released),
     *     or a fresh instance when this thread's is still being handed down the pipeline
     */
    static InboundDatagram acquire() {
        InboundDatagram d = PER_THREAD.get();
        if (d.inUse) {
            return new InboundDatagram();
        }
        d.sender = null;
        d.packets.clear();
        return d;
    }

    /** @param sender the datagram's source address (set once its packets are decoded into {@link #packets}) */
    void sender(InetSocketAddress sender) {
        this.sender = sender;
    }

    /** @param on true while the instance travels down the pipeline (set around {@code fireChannelRead}) */
    void inUse(boolean on) {
        this.inUse = on;
    }

    /** @return the datagram's source address */
    InetSocketAddress sender() {
        return sender;
    }

    /**
     * @return the reused packet objects the decoder fills ({@link org.rx4j.wire.PacketDecoder#decode(
     *     io.netty.buffer.ByteBuf, List, PacketFlyweights)}): the DATA and ACK packets in {@link #packets} are
     *     these, valid until this instance's next datagram
     */
    PacketFlyweights flyweights() {
        return flyweights;
    }

    /** @return the packets in wire order (the decoder appends to it); the list is owned by this object */
    List<RxPacket> packets() {
        return packets;
    }

    /** Releases every packet (for a holder that drops the datagram instead of handing it to the engine). */
    void release() {
        for (RxPacket p : packets) {
            p.release();
        }
        packets.clear();
    }
}
