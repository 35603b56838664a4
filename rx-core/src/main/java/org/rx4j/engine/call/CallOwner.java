// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine.call;

import java.util.List;
import org.rx4j.wire.DataPacket;
import org.rx4j.wire.RxPacket;

/**
 * The few things a call asks of the connection that owns it, beyond the fixed {@link CallEnv}: the connection's
 * serial counter, sending (counted with the connection and its peer), aborting the whole connection, and a freed
 * channel. Implemented by the connection ({@code Connection}) itself; no method names a call, so the call and this interface form no
 * cycle (docs/engine.md "Two-way references"). Engine thread only.
 */
public interface CallOwner {
    /** @return the connection's next serial for an outgoing packet (pre-incremented, the first is 1) */
    int nextSerial();

    /** @return the last serial the connection sent */
    int lastSerial();

    /**
     * Sends one packet to the peer and counts it (packets by type, bytes).
     *
     * @param p the packet; ownership passes to the engine's sink
     */
    void send(RxPacket p);

    /**
     * Sends DATA packets of one call as one datagram (a jumbogram when there are several) and counts them; clears
     * the list.
     *
     * @param batch 1..46 packets of one call; ownership of each passes to the engine's sink
     */
    void sendData(List<DataPacket> batch);

    /**
     * Aborts the whole connection from this side (its security class refused to prepare a call's packet): ABORT with
     * callNumber 0 is sent and every call fails with {@code code} (rx-wire-facts.md §6.5).
     *
     * @param now current time, ns
     * @param code the abort code, non-zero
     */
    void abort(long now, int code);

    /**
     * A call on {@code channel} reached DALLY or ERROR (its completion event is already queued), or a call still
     * waiting for a channel ({@code channel} −1) ended: on a client, a waiting call takes the freed channel; an ended
     * waiting call leaves the queue.
     *
     * @param channel 0..3, or −1 for a call that never had one
     * @param now current time, ns (a waiting call starts at it)
     */
    void callEnded(int channel, long now);
}
