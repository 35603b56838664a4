// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.security.packet;

import java.util.Objects;
import org.rx4j.security.SecurityClass;
import org.rx4j.wire.RxConstants;

/**
 * One connection's security state, created by the engine when the connection is created and passed to
 * every {@link PacketSecurity} call for that connection. It exposes what a security class needs to know
 * about the connection (epoch, cid, service id, role, the four channels' call numbers; rx-wire-facts.md
 * §1, §7) and holds one slot, {@link #state()}, that belongs to the security class (keys, nonces,
 * counters). The engine never reads or writes that slot.
 *
 * <p>Thread confinement: a connection is owned by one event loop, and so is its context; nothing here is
 * synchronized.
 */
public final class SecurityContext {
    private final SecurityClass securityClass;
    private final ConnectionRole role;
    private final int epoch;
    private final int cid;
    private final int serviceId;
    private final ChannelCallNumbers callNumbers;
    private Object state;
    private int[] responseCallNumbers;

    /**
     * @param securityClass the connection's security class; fixed for the connection's life
     * @param role which end of the connection this side is
     * @param epoch the connection's epoch (header bytes 0..3)
     * @param cid the connection's cid; the channel bits (1..0) are cleared
     * @param serviceId the connection's service id, 0..65535
     * @param callNumbers the engine's view of the four channels' call numbers
     * @throws IllegalArgumentException if serviceId is out of range
     * @throws NullPointerException if securityClass, role or callNumbers is null
     */
    public SecurityContext(SecurityClass securityClass, ConnectionRole role, int epoch, int cid, int serviceId,
                           ChannelCallNumbers callNumbers) {
        if ((serviceId & ~0xFFFF) != 0) {
            throw new IllegalArgumentException("serviceId must be 0..65535: " + serviceId);
        }
        this.securityClass = Objects.requireNonNull(securityClass, "securityClass");
        this.role = Objects.requireNonNull(role, "role");
        this.epoch = epoch;
        this.cid = cid & RxConstants.CID_MASK;
        this.serviceId = serviceId;
        this.callNumbers = Objects.requireNonNull(callNumbers, "callNumbers");
    }

    /** @return the connection's security class */
    public SecurityClass securityClass() {
        return securityClass;
    }

    /** @return the security index sent in header byte 23 of every packet of the connection, 0..255 */
    public int securityIndex() {
        return securityClass.securityIndex();
    }

    /** @return which end of the connection this side is */
    public ConnectionRole role() {
        return role;
    }

    /** @return true when this side is the connection's client */
    public boolean isClient() {
        return role == ConnectionRole.CLIENT;
    }

    /** @return the connection's epoch */
    public int epoch() {
        return epoch;
    }

    /** @return the connection's cid with the channel bits cleared */
    public int cid() {
        return cid;
    }

    /** @return the connection's service id, 0..65535 */
    public int serviceId() {
        return serviceId;
    }

    /**
     * @param channel 0..3
     * @return the current callNumber on that channel as the engine sees it now; 0 = no call yet
     * @throws IndexOutOfBoundsException if channel is not 0..3
     */
    public int callNumber(int channel) {
        Objects.checkIndex(channel, RxConstants.MAX_CALLS);
        return callNumbers.callNumber(channel);
    }

    /** @return the security class's per-connection state, or null before the class set it */
    public Object state() {
        return state;
    }

    /**
     * Stores the security class's per-connection state (only the security class calls this).
     *
     * @param state anything the class needs; may be null
     */
    public void setState(Object state) {
        this.state = state;
    }

    /**
     * Server side, called by the security class from {@link PacketSecurity#checkResponse}: the RESPONSE
     * carried the client's four call numbers (rxkad does, §7). The engine applies them to its channels
     * after a successful check, so that calls older than the authenticated ones cannot be replayed
     * (OpenAFS does the same after rxkad's check).
     *
     * @param channelCallNumbers exactly four call numbers, channel 0..3; copied
     * @throws IllegalArgumentException if the array does not hold exactly four numbers
     */
    public void setResponseCallNumbers(int[] channelCallNumbers) {
        if (channelCallNumbers.length != RxConstants.MAX_CALLS) {
            throw new IllegalArgumentException("need " + RxConstants.MAX_CALLS + " call numbers, got "
                    + channelCallNumbers.length);
        }
        this.responseCallNumbers = channelCallNumbers.clone();
    }

    /**
     * Engine side, after {@link PacketSecurity#checkResponse} returned 0: the call numbers the RESPONSE
     * carried, if the class reported any; reading clears them.
     *
     * @return four call numbers (channel 0..3), or null when the class reported none (rxnull never does)
     */
    public int[] takeResponseCallNumbers() {
        int[] numbers = responseCallNumbers;
        responseCallNumbers = null;
        return numbers;
    }

    @Override
    public String toString() {
        return "SecurityContext{" + securityClass.name() + " " + role + " epoch="
                + Integer.toUnsignedString(epoch, 16) + " cid=" + Integer.toUnsignedString(cid, 16)
                + " svc=" + serviceId + "}";
    }
}
