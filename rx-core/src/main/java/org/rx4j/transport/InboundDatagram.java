package org.rx4j.transport;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import org.rx4j.wire.RxPacket;

/**
 * The decoder → engine hand-off: the packets of one received datagram (one packet, or the 2..46 sub-packets
 * of a jumbogram, rx-wire-facts.md §4) and who sent it. {@link DatagramDecoder} fires one per well-formed
 * datagram; {@link EngineHandler} passes its contents to {@link org.rx4j.engine.RxEngine#onDatagram}.
 *
 * <p>Kept deliberately one small type with nothing but these two fields, so that it can later become a
 * per-event-loop flyweight (one reused instance per loop, cleared after the engine handler returns) to make
 * the receive path allocation-free; nothing may keep a reference to it after {@code channelRead} returns.
 *
 * <p>Ownership: the packets (DATA packets hold retained slices of the datagram's buffer) belong to whoever
 * holds this object; the engine handler hands them to the engine, which then owns them. Anyone else that
 * receives it (e.g. a test reading the decoder's output) calls {@link #release()}.
 */
final class InboundDatagram {
    private final InetSocketAddress sender;
    private final List<RxPacket> packets;

    /**
     * @param sender the datagram's source address
     * @param packets the decoded packets in wire order, at least one; the list is taken over, not copied
     */
    InboundDatagram(InetSocketAddress sender, List<RxPacket> packets) {
        this.sender = sender;
        this.packets = packets;
    }

    /** @return a list sized for the common case, one packet per datagram */
    static List<RxPacket> newPacketList() {
        return new ArrayList<>(2);
    }

    /** @return the datagram's source address */
    InetSocketAddress sender() {
        return sender;
    }

    /** @return the packets in wire order; the list is owned by this object */
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
