package org.rx4j.engine;

import java.util.ArrayDeque;
import org.rx4j.wire.PacketFlags;
import org.rx4j.wire.RxConstants;
import org.rx4j.wire.RxHeader;

/**
 * One Rx connection (rx-wire-facts.md §1, §6, §7): identity (epoch, cid, service id, security index,
 * peer), 4 channels each with its callNumber and current call, the per-direction serial counter and the
 * connection's counters. Owned by the engine's thread.
 */
public final class Connection {
    final RxEngine engine;
    /** The remote peer; a server connection with epoch bit 31 follows its client to a new address. */
    Peer peer;
    final boolean client;
    final int epoch;
    final int cid;
    final int serviceId;
    final int securityIndex;
    final Call[] calls = new Call[RxConstants.MAX_CALLS];
    final int[] callNumbers = new int[RxConstants.MAX_CALLS];
    final boolean[] busy = new boolean[RxConstants.MAX_CALLS];
    final ArrayDeque<Call> waiting = new ArrayDeque<>();
    final RxCounters counters = new RxCounters();
    private int serial;
    long lastActivityNs;
    boolean closed;
    /** Error that ended the whole connection (connection ABORT), 0 while usable. */
    int error;

    Connection(RxEngine engine, Peer peer, boolean client, int epoch, int cid, int serviceId, int securityIndex) {
        this.engine = engine;
        this.peer = peer;
        this.client = client;
        this.epoch = epoch;
        this.cid = cid;
        this.serviceId = serviceId;
        this.securityIndex = securityIndex;
    }

    /** @return true on the side that created the connection (sends CLIENT_INITIATED) */
    public boolean isClient() {
        return client;
    }

    /** @return the epoch, as on the wire */
    public int epoch() {
        return epoch;
    }

    /** @return the connection id: cid with the channel bits clear */
    public int cid() {
        return cid;
    }

    /** @return the destination service id, 0..65535 */
    public int serviceId() {
        return serviceId;
    }

    /** @return the security index (0 = rxnull) */
    public int securityIndex() {
        return securityIndex;
    }

    /** @return the remote peer */
    public Peer peer() {
        return peer;
    }

    /** @return this connection's counters (read on the engine's thread) */
    public RxCounters counters() {
        return counters;
    }

    /**
     * @param channel 0..3
     * @return the channel's current callNumber (0 before its first call)
     */
    public int callNumber(int channel) {
        return callNumbers[channel];
    }

    /**
     * @param channel 0..3
     * @return the channel's current call (active or dallying), or null
     */
    public Call call(int channel) {
        return calls[channel];
    }

    /** @return calls waiting for a free channel (client side) */
    public int waitingCalls() {
        return waiting.size();
    }

    /** @return the next serial for an outgoing packet (pre-incremented, first is 1) */
    int nextSerial() {
        return ++serial;
    }

    /** @return the last serial sent */
    int lastSerial() {
        return serial;
    }

    /**
     * Builds a header for a packet of this connection.
     *
     * @param channel 0..3
     * @param callNumber the call's number, or 0 for connection-level packets
     * @param seq DATA seq or 0
     * @param serial the packet's serial
     * @param type packet type
     * @param flags flags without CLIENT_INITIATED (added on the client side)
     * @return the header
     */
    RxHeader header(int channel, int callNumber, int seq, int serial, int type, int flags) {
        int f = client ? flags | PacketFlags.CLIENT_INITIATED : flags;
        return new RxHeader(epoch, cid | channel, callNumber, seq, serial, type, f, 0, securityIndex, 0, serviceId);
    }

    /** @return true when some channel has a call that has not finished */
    boolean hasActiveCalls() {
        for (Call c : calls) {
            if (c != null && !c.isDone()) {
                return true;
            }
        }
        return !waiting.isEmpty();
    }

    /** @return a header-only description for logs */
    @Override
    public String toString() {
        return (client ? "client" : "server") + "Conn{epoch=" + Integer.toUnsignedString(epoch, 16) + " cid="
                + Integer.toUnsignedString(cid, 16) + " svc=" + serviceId + " peer=" + peer.address() + "}";
    }
}
