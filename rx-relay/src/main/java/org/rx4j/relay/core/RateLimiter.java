// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.relay.core;

/**
 * A bottleneck link: serialises datagrams at a fixed rate behind a drop-tail queue (as a router's output port).
 * A datagram admitted at {@code now} starts when the link is free and departs {@code bytes · 8 / rate} later; the
 * queue holds the datagrams admitted but not yet departed (including the one on the wire) and a datagram that
 * finds it at its limit is dropped. Sizes are UDP payload bytes (no IP/UDP header overhead). Sans-I/O: time is
 * an argument.
 */
public final class RateLimiter {
    private final long bitsPerSecond;
    private final long[] departures;
    private int head;
    private int count;
    private long linkFreeNs = Long.MIN_VALUE;

    /**
     * @param bitsPerSecond link rate, bits of UDP payload per second (> 0)
     * @param queuePackets queue limit, packets (≥ 1)
     * @throws IllegalArgumentException if out of range
     */
    public RateLimiter(long bitsPerSecond, int queuePackets) {
        if (bitsPerSecond <= 0 || queuePackets < 1) {
            throw new IllegalArgumentException("rate must be > 0 and queue ≥ 1, got " + bitsPerSecond + " bit/s, "
                    + queuePackets + " packets");
        }
        this.bitsPerSecond = bitsPerSecond;
        this.departures = new long[queuePackets];
    }

    /**
     * Admits a datagram or drops it at the tail.
     *
     * @param nowNs arrival time, ns (non-decreasing between calls)
     * @param bytes UDP payload size, bytes
     * @return the departure time in ns (when its last bit leaves the link), or -1 if the queue was full
     */
    public long admit(long nowNs, int bytes) {
        while (count > 0 && departures[head] <= nowNs) {
            head = (head + 1) % departures.length;
            count--;
        }
        if (count == departures.length) {
            return -1;
        }
        long start = Math.max(nowNs, linkFreeNs);
        long departure = start + serialisationNs(bytes);
        linkFreeNs = departure;
        departures[(head + count) % departures.length] = departure;
        count++;
        return departure;
    }

    /**
     * @param bytes payload size, bytes
     * @return time to put {@code bytes} on the link, ns (rounded up)
     */
    public long serialisationNs(int bytes) {
        long bitNs = (long) bytes * 8L * 1_000_000_000L;
        return (bitNs + bitsPerSecond - 1) / bitsPerSecond;
    }

    /**
     * @param nowNs the time, ns
     * @return datagrams queued or on the wire at {@code nowNs} as of the last {@link #admit}, packets
     */
    public int queued(long nowNs) {
        int n = 0;
        for (int i = 0; i < count; i++) {
            if (departures[(head + i) % departures.length] > nowNs) {
                n++;
            }
        }
        return n;
    }
}
