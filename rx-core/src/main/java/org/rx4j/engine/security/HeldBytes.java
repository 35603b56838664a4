// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine.security;

/**
 * The byte budget of one kind of packets kept for a source that has not proven itself or not authenticated
 * (docs/robustness.md "Rule: a byte budget for what unproven sources leave"): the challenge's kept first packets,
 * held server calls' packets, or DATA parked for the security handshake. Counts the bytes of that kind kept now
 * (header + payload per packet) and the packets refused for lack of room; the owner keeps each peer's own count and
 * decides what to evict. Engine thread only.
 */
public final class HeldBytes {
    private final long maxBytes;
    private final long maxPerPeer;
    private long bytes;
    private long refused;

    /**
     * @param maxBytes most bytes of this kind kept at once, endpoint-wide ({@code RxConfig.limits().maxHeldBytes()})
     * @param maxPerPeer most bytes of this kind kept for one peer (host and port)
     *     ({@code RxConfig.limits().maxHeldBytesPerPeer()})
     */
    public HeldBytes(long maxBytes, long maxPerPeer) {
        this.maxBytes = maxBytes;
        this.maxPerPeer = maxPerPeer;
    }

    /**
     * @param peerBytes bytes of this kind kept for the packet's peer now
     * @param n the packet's size, bytes
     * @return true when the peer's share has room for the packet
     */
    public boolean fitsPeer(long peerBytes, int n) {
        return peerBytes + n <= maxPerPeer;
    }

    /**
     * @param n a packet's size, bytes
     * @return true when the endpoint's budget of this kind has room for the packet
     */
    public boolean fitsTotal(int n) {
        return bytes + n <= maxBytes;
    }

    /** @return true when more than the endpoint's budget of this kind is kept (after a recount) */
    public boolean over() {
        return bytes > maxBytes;
    }

    /** @return true when {@code peerBytes} is above one peer's share */
    public boolean overPeer(long peerBytes) {
        return peerBytes > maxPerPeer;
    }

    /** @param n bytes now kept (negative: bytes no longer kept) */
    public void add(long n) {
        bytes += n;
    }

    /** Counts a packet not kept for lack of room. */
    public void refuse() {
        refused++;
    }

    /** @return bytes of this kind kept now */
    public long bytes() {
        return bytes;
    }

    /** @return packets of this kind not kept for lack of room (or above a source's packet size) so far */
    public long refused() {
        return refused;
    }
}
