// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.config;

import java.util.function.Consumer;

/**
 * The UDP socket buffers the endpoint asks the kernel for (docs/transport.md; docs/robustness.md "Flood"), and whether
 * the kernel batches equal-size datagrams in them. What is requested when nothing is set follows from the windows and
 * packet size: {@link RxConfig#effectiveUdpBufferBytes()} and {@link RxConfig#effectiveReceiveBufferBytes()}.
 *
 * @param udpBufferBytes UDP socket send and receive buffer requested, bytes, &gt;= 0; 0 = send sized from the windows,
 *     receive at least 4 MiB ({@link RxConfig#DEFAULT_MIN_RECEIVE_BUFFER}) (default)
 * @param segmentationOffload true (default) to send runs of equal-size datagrams to one peer with UDP GSO and read
 *     with UDP GRO (unless {@code receiveOffload} is false) where the transport is epoll and the kernel has them;
 *     false for one system call's slot per datagram both ways (docs/transport.md "Segmentation offload"); no effect
 *     on NIO
 * @param receiveOffload true (default) to read with UDP GRO when {@code segmentationOffload} is on; false to read
 *     in {@code recvmmsg} batches of 8 datagrams while still sending with GSO: better for a receiver of single-packet
 *     datagrams that GRO does not coalesce (an OpenAFS fileserver's, on loopback or a veth), which GRO reads one per
 *     system call (docs/transport.md "Segmentation offload")
 * @param idleSpinNs how long the event loop polls its socket without sleeping after an exchange in which it sent
 *     small datagrams only (short calls, the ACKs of a transfer it receives in OpenAFS-sized datagrams), ns,
 *     0..{@link #MAX_IDLE_SPIN_NS}, counted from when the loop ran out of work; after an exchange with a transfer's
 *     DATA it polls at most 100 µs of it; 0 (default) = it always blocks when idle, as Netty's loops do. A short
 *     call's answer caught while spinning costs no wake-up (docs/transport.md "Idle spin"); the price is up to this
 *     much CPU after each such exchange, given up to any other thread that wants it
 * @param schedulerSliceNs the time slice the event loop's thread asks Linux's scheduler for, ns: 0 (default) = the
 *     kernel's, else {@link #MIN_SCHEDULER_SLICE_NS}..{@link #MAX_SCHEDULER_SLICE_NS}. A shorter slice than the
 *     kernel's lets the loop, woken by a datagram, run at once on a CPU where another thread (a peer's on the same
 *     host) is running, instead of after that thread's slice (sched_setattr(2) {@code sched_runtime}, honoured by
 *     Linux 6.12 or later). Applied only where the JVM can make the call: Linux on x86_64 or aarch64, JDK 22 or later,
 *     native access enabled ({@code --enable-native-access}); elsewhere the loop keeps the kernel's slice
 *     (docs/transport.md "Scheduler slice")
 */
public record SocketBuffers(int udpBufferBytes, boolean segmentationOffload, boolean receiveOffload,
                            long idleSpinNs, long schedulerSliceNs) {
    /** Longest idle spin, ns (10 ms): longer, a quiet endpoint would hold a CPU for nothing. */
    public static final long MAX_IDLE_SPIN_NS = 10_000_000L;
    /** Shortest {@link #schedulerSliceNs()} other than 0, ns (100 µs): the kernel's lower clamp. */
    public static final long MIN_SCHEDULER_SLICE_NS = 100_000L;
    /** Longest {@link #schedulerSliceNs()}, ns (100 ms): the kernel's upper clamp. */
    public static final long MAX_SCHEDULER_SLICE_NS = 100_000_000L;
    /** Nothing set: both buffers sized by the endpoint, segmentation offload where it exists, no idle spin. */
    public static final SocketBuffers DEFAULTS = new SocketBuffers(0);

    /**
     * Buffers of this size with segmentation offload on.
     *
     * @param udpBufferBytes see the record component
     * @throws IllegalArgumentException if udpBufferBytes is negative
     */
    public SocketBuffers(int udpBufferBytes) {
        this(udpBufferBytes, true);
    }

    /**
     * Buffers and offload as given, no idle spin.
     *
     * @param udpBufferBytes see the record component
     * @param segmentationOffload see the record component
     * @throws IllegalArgumentException if udpBufferBytes is negative
     */
    public SocketBuffers(int udpBufferBytes, boolean segmentationOffload) {
        this(udpBufferBytes, segmentationOffload, 0);
    }

    /**
     * Buffers, offload (GSO and GRO alike) and idle spin as given.
     *
     * @param udpBufferBytes see the record component
     * @param segmentationOffload see the record component; {@code receiveOffload} follows it
     * @param idleSpinNs see the record component
     * @throws IllegalArgumentException if udpBufferBytes is negative or idleSpinNs is out of range
     */
    public SocketBuffers(int udpBufferBytes, boolean segmentationOffload, long idleSpinNs) {
        this(udpBufferBytes, segmentationOffload, true, idleSpinNs, 0);
    }

    /**
     * Buffers, offload and idle spin as given, the kernel's scheduler slice.
     *
     * @param udpBufferBytes see the record component
     * @param segmentationOffload see the record component
     * @param receiveOffload see the record component
     * @param idleSpinNs see the record component
     * @throws IllegalArgumentException if udpBufferBytes is negative or idleSpinNs is out of range
     */
    public SocketBuffers(int udpBufferBytes, boolean segmentationOffload, boolean receiveOffload, long idleSpinNs) {
        this(udpBufferBytes, segmentationOffload, receiveOffload, idleSpinNs, 0);
    }

    /**
     * Checks the range listed with the component.
     *
     * @throws IllegalArgumentException if udpBufferBytes is negative, or idleSpinNs or schedulerSliceNs is out of range
     */
    public SocketBuffers {
        SettingCheck.range("udpBufferBytes", udpBufferBytes, 0, Integer.MAX_VALUE);
        SettingCheck.rangeNs("idleSpinNs", idleSpinNs, 0, MAX_IDLE_SPIN_NS);
        if (schedulerSliceNs != 0
                && (schedulerSliceNs < MIN_SCHEDULER_SLICE_NS || schedulerSliceNs > MAX_SCHEDULER_SLICE_NS)) {
            throw new IllegalArgumentException("schedulerSliceNs must be 0 or " + MIN_SCHEDULER_SLICE_NS + ".."
                    + MAX_SCHEDULER_SLICE_NS + " ns: " + schedulerSliceNs + " ns");
        }
    }

    /**
     * A mutable copy of these settings, so that {@link RxConfig.Builder} changes one setting by name and the record is
     * built (and checked) here, the one place that lists the components in order.
     */
    static final class Draft {
        int udpBufferBytes;
        boolean segmentationOffload;
        boolean receiveOffload;
        long idleSpinNs;
        long schedulerSliceNs;

        Draft(SocketBuffers from) {
            udpBufferBytes = from.udpBufferBytes;
            segmentationOffload = from.segmentationOffload;
            receiveOffload = from.receiveOffload;
            idleSpinNs = from.idleSpinNs;
            schedulerSliceNs = from.schedulerSliceNs;
        }

        SocketBuffers build() {
            return new SocketBuffers(udpBufferBytes, segmentationOffload, receiveOffload, idleSpinNs,
                    schedulerSliceNs);
        }
    }

    /**
     * @param edit changes a draft of these settings
     * @return the settings with that change, checked as any construction is
     * @throws IllegalArgumentException naming the setting out of range (this record unchanged)
     */
    SocketBuffers with(Consumer<Draft> edit) {
        Draft d = new Draft(this);
        edit.accept(d);
        return d.build();
    }
}
