// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.relay.core;

/**
 * Why the relay dropped a datagram. The first four are impairments asked for; the {@code RELAY_*} ones are the
 * relay's own failures ({@link #isRelayOwn()}): each means the run was (partly) relay-bound and triggers the
 * falling-behind warning.
 */
public enum DropReason {
    /** Larger than the MTU cap ({@link Impairment#mtuBytes()}). */
    MTU("mtu", false),
    /** Random (Bernoulli) loss ({@link Impairment#lossProbability()}). */
    LOSS("loss", false),
    /** Gilbert–Elliott bursty loss ({@link GilbertElliott}). */
    BURST_LOSS("burst", false),
    /** Drop-tail at the rate limiter's queue of {@link Impairment#queuePackets()} packets. */
    QUEUE("queue", false),
    /** The relay's own delay line held its byte limit (memory bound, not an impairment). */
    RELAY_QUEUE("relay-queue", true),
    /** The outbound socket was full (channel not writable) or the write failed. */
    RELAY_SOCKET("relay-socket", true),
    /** The kernel dropped the datagram on the relay's receive socket (buffer overflow; Linux /proc/net/udp). */
    RELAY_RECEIVE("relay-receive", true),
    /** A new client address arrived while the relay already served its maximum number of clients. */
    RELAY_FLOWS("relay-flows", true);

    private final String label;
    private final boolean relayOwn;

    DropReason(String label, boolean relayOwn) {
        this.label = label;
        this.relayOwn = relayOwn;
    }

    /** @return the short name used in stats lines, e.g. {@code burst} */
    public String label() {
        return label;
    }

    /** @return true when the drop is the relay's own failure rather than an impairment asked for */
    public boolean isRelayOwn() {
        return relayOwn;
    }
}
