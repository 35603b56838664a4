// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine.pmtu;

/**
 * What a {@link PathMtuProber} reads from the call that owns it, and the two things it asks that call to do: send a
 * padded PING, re-cut packets. The owner (the engine's call sender) implements it once per call; every size is read
 * when the prober needs it, so the values are always those of now (the peer's advertised sizes and the path state
 * change between calls of the prober). Runs on the engine's thread (docs/engine.md "Packet size", "Path MTU below one
 * full packet").
 */
public interface PathMtuCall extends ProbeSender {
    /**
     * @return sub-packets per datagram the peer and this endpoint allow, before the path's cap (rx-wire-facts.md
     *     §4)
     */
    int jumboWant();

    /** @return the largest Rx packet worth probing for toward the peer (its maxMTU, ifMTU, our largest), bytes */
    int largePacketTarget();

    /** @return the wait between the first large-packet probes: 2 srtt, at least the minimum RTO, ns */
    long largeProbeQuickWaitNs();

    /**
     * @return the Rx packet size calls would cut with no path limit (header + data), bytes: what an upward probe
     *     tries
     */
    int usualPacketSize();

    /** @return the full packet size toward the peer now (header + data), bytes */
    int fullPacketSize();

    /** @return data bytes per packet the call cuts now, what its packets are re-cut to, bytes */
    int packetDataSize();

    /**
     * @return how long before a probe ladder a packet's last copy must have left for the packet to be re-cut:
     *     max(srtt, minimum RTO) + the RTO slack, ns
     */
    long recutMarginNs();

    /**
     * @param t a time on the engine's clock, ns
     * @return true when a packet came from the peer after {@code t}
     */
    boolean heardSince(long t);

    /**
     * Re-cuts the call's packets from {@code from} on at {@code max} data bytes (docs/engine.md "Path MTU below one
     * full packet"); the prober has checked that this is safe.
     *
     * @param from the first seq to re-cut
     * @param max data bytes per packet
     * @param transmitted true when packets already transmitted are among them
     */
    void recut(int from, int max, boolean transmitted);
}
