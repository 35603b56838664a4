// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.perf;

import org.rx4j.perf.transport.PerfEndpointOptions;
import org.rx4j.config.TransportKind;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Option;
import picocli.CommandLine.TypeConversionException;

/**
 * The Rx endpoint flags client, server and loopback share: OpenAFS rxperf's {@code -W -j -m -u -P -N} with their
 * meanings (rx-wire-facts.md §8 last bullet, §10), plus rx4j's long-only extras, and {@code --debug}.
 */
public final class EndpointFlags {
    /** Largest {@code -u} in KiB whose byte count still fits an int. */
    static final int MAX_UDP_BUFFER_KIB = Integer.MAX_VALUE / 1024;

    @Option(names = "-W", paramLabel = "PACKETS", converter = CIntConverter.class,
            description = "Max send and receive window (twind and rwind maxima), 1..255 packets. "
                    + "Default: the library's (32).")
    Integer maxWindow;

    @Option(names = "--twind", paramLabel = "PACKETS", converter = CIntConverter.class,
            description = "Max send window alone, 1..255 packets; overrides -W for sending.")
    Integer twind;

    @Option(names = "--rwind", paramLabel = "PACKETS", converter = CIntConverter.class,
            description = "Max receive window alone, 1..255 packets; overrides -W for receiving.")
    Integer rwind;

    @Option(names = "-j", description = "No jumbograms (advertise maxDgramPackets 1, as rx_SetNoJumbo).")
    boolean noJumbo;

    @Option(names = "--jumbo-max", paramLabel = "PACKETS", converter = CIntConverter.class,
            defaultValue = "" + PerfEndpointOptions.DEFAULT_JUMBO_MAX,
            description = "Most DATA packets per jumbogram, 1..46; fewer where the route to the peer carries fewer "
                    + "unfragmented. Default: ${DEFAULT-VALUE}, as OpenAFS.")
    int jumboMax;

    @Option(names = "-m", paramLabel = "BYTES", converter = CIntConverter.class,
            description = "Max MTU (largest Rx packet), 520..65535 bytes. Default: as large as the route to the peer carries.")
    Integer maxMtu;

    @Option(names = "-u", paramLabel = "KIB", converter = CIntConverter.class,
            description = "UDP socket buffer, send and receive, KiB (1..2097151). Default: send sized from the "
                    + "windows, receive at least 4096 (the kernel may cap both; OpenAFS: 64).")
    Integer udpBufferKib;

    @Option(names = "-P", paramLabel = "MS", converter = CIntConverter.class, defaultValue = "20",
            description = "Min peer timeout (RTO floor), 1..999 ms. Default: ${DEFAULT-VALUE}.")
    int minPeerTimeoutMs;

    @Option(names = "-N", description = "No Rx statistics (cannot be used with -D).")
    boolean noStats;

    @Option(names = "--hard-acks-only", description = "Receiver sends hard acks only (no soft acks).")
    boolean hardAcksOnly;

    /**
     * A server's socket when {@code --transport} is not given: epoll's recvmmsg reads served 1 MiB sends 17-25% faster
     * than NIO and kept a legitimate client's rate under a datagram flood where NIO lost most of it
     * (docs/robustness.md "Flood").
     */
    static final TransportKind SERVER_DEFAULT_TRANSPORT = TransportKind.AUTO;
    /**
     * A client's socket when {@code --transport} is not given: epoll where it loads, for UDP GSO (docs/transport.md
     * "Segmentation offload"): between two network namespaces at MTU 1500 a 1 MiB send ran at 756-851 Mbit/s with an
     * epoll client and 307-394 with a NIO one (no jumbograms above the route's MTU, so every packet is a datagram);
     * on loopback the two were level (docs/benchmarks.md "Transports").
     */
    static final TransportKind CLIENT_DEFAULT_TRANSPORT = TransportKind.AUTO;

    /**
     * What a side of an rxperf run takes for the flags it was not given.
     *
     * @param transport the socket when {@code --transport} is not given
     * @param sliceUs the scheduler slice when {@code --slice-us} is not given, µs (0 = the kernel's)
     */
    record SideDefaults(TransportKind transport, int sliceUs) {
    }

    /**
     * A server's defaults: its loop asks for a 100 µs scheduler slice. A server's loop mostly waits for its peers'
     * datagrams; woken on a CPU where a client's thread runs (the same host), it then runs at once instead of after
     * that thread's slice: OpenAFS's client received 1 MiB calls from a warm rx4j server in 9-16% less time, the
     * other rows unchanged. A cold rxperf client's loop competes with the JIT for its CPU and gained nothing
     * (docs/transport.md "Scheduler slice", docs/benchmarks.md "A shorter scheduler slice for the server's loop").
     */
    static final SideDefaults SERVER_DEFAULTS =
            new SideDefaults(SERVER_DEFAULT_TRANSPORT, PerfEndpointOptions.SERVER_SCHEDULER_SLICE_US);
    /** A client's defaults: the kernel's scheduler slice (see {@link #SERVER_DEFAULTS}). */
    static final SideDefaults CLIENT_DEFAULTS = new SideDefaults(CLIENT_DEFAULT_TRANSPORT, 0);

    @Option(names = "--transport", paramLabel = "nio|epoll|auto", converter = TransportKindConverter.class,
            description = "Socket implementation: nio, epoll (Linux; recvmmsg reads) or auto (epoll where it loads, "
                    + "else nio). Default: auto.")
    TransportKind transport;

    @Option(names = "--fragment-jumbograms", description = "Send and invite jumbograms larger than the route to the "
            + "peer carries, as OpenAFS does (IP fragments them; a lost fragment loses the whole jumbogram). Default: "
            + "jumbograms only as large as the route's interface carries, so none on an Ethernet-size route.")
    boolean fragmentJumbograms;

    @Option(names = "--no-gso", description = "No UDP segmentation offload: with epoll, send every datagram in its "
            + "own slot of a system call (no GSO) and read without GRO. Default: GSO and GRO where the kernel has them.")
    boolean noGso;

    @Option(names = "--no-gro", description = "Read without UDP GRO, in recvmmsg batches of 8 datagrams, while still "
            + "sending with GSO: faster against OpenAFS peers on transfers and concurrent calls (GRO never coalesces "
            + "their datagrams); slower between rx4j peers. Default: GRO where the kernel has it.")
    boolean noGro;

    @Option(names = "--spin-us", paramLabel = "US", converter = CIntConverter.class,
            defaultValue = "" + PerfEndpointOptions.DEFAULT_IDLE_SPIN_US,
            description = "After an exchange in which the loop sent only small datagrams (short calls, the ACKs of "
                    + "a received transfer), poll the socket without sleeping for up to this long from when the loop "
                    + "ran out of work, yielding the CPU, before blocking (after a transfer's DATA, at most 100 us); "
                    + "0..10000 us, 0 = block at once (the library's default). Default: ${DEFAULT-VALUE}.")
    int spinUs;

    @Option(names = "--slice-us", paramLabel = "US", converter = CIntConverter.class,
            description = "Time slice the event loop's thread asks Linux's scheduler for: a shorter one than the "
                    + "kernel's lets the loop, woken by a datagram, run at once on a CPU another thread holds "
                    + "(Linux 6.12 or later; needs JDK 22 or later and --enable-native-access, as scripts/rxperf "
                    + "runs it; elsewhere ignored); 0 or 100..100000 us, 0 = the kernel's (the library's default). "
                    + "Default: " + PerfEndpointOptions.SERVER_SCHEDULER_SLICE_US + " for a server, 0 for a client.")
    Integer sliceUs;

    @Option(names = "--cc", paramLabel = "newreno|bbr", defaultValue = "newreno",
            description = "Congestion controller of the sender: newreno (loss-based) or bbr "
                    + "(model-based, draft-ietf-ccwg-bbr; random loss below 2%% is not congestion). "
                    + "Default: ${DEFAULT-VALUE}.")
    String congestionControl;

    @Option(names = "--debug-replies", paramLabel = "always|loopback|no-amplification|never",
            defaultValue = "loopback",
            description = "Which rxdebug (DEBUG/VERSION) queries are answered: always (OpenAFS; needed for rxdebug "
                    + "from another host), loopback (from 127/8 and ::1, or when the reply is no larger than the "
                    + "query), no-amplification, never. Default: ${DEFAULT-VALUE}.")
    String debugReplies;

    @Option(names = "--debug", description = "Print stack traces with errors.")
    boolean debug;

    /**
     * Checks the ranges.
     *
     * @param check the checker of the command
     * @throws picocli.CommandLine.ParameterException naming the first flag out of range
     */
    void validate(FlagCheck check) {
        check.range("-W", maxWindow, 1, PerfEndpointOptions.MAX_WINDOW);
        check.range("--twind", twind, 1, PerfEndpointOptions.MAX_WINDOW);
        check.range("--rwind", rwind, 1, PerfEndpointOptions.MAX_WINDOW);
        check.range("--jumbo-max", jumboMax, 1, PerfEndpointOptions.MAX_JUMBO_MAX);
        check.range("-m", maxMtu, PerfEndpointOptions.MIN_MTU, PerfEndpointOptions.MAX_MTU);
        check.range("-u", udpBufferKib, 1, MAX_UDP_BUFFER_KIB);
        check.range("-P", minPeerTimeoutMs, 1, 999);
        check.range("--spin-us", spinUs, 0, PerfEndpointOptions.MAX_IDLE_SPIN_US);
        if (sliceUs != null && sliceUs != 0 && (sliceUs < PerfEndpointOptions.MIN_SCHEDULER_SLICE_US
                || sliceUs > PerfEndpointOptions.MAX_SCHEDULER_SLICE_US)) {
            throw check.invalid("--slice-us", sliceUs + " is not 0 or in " + PerfEndpointOptions.MIN_SCHEDULER_SLICE_US
                    + ".." + PerfEndpointOptions.MAX_SCHEDULER_SLICE_US);
        }
        if (!PerfEndpointOptions.CONGESTION_CONTROLS.contains(congestionControl)) {
            throw check.invalid("--cc", congestionControl + " is not one of newreno, bbr");
        }
        if (!PerfEndpointOptions.DEBUG_REPLIES.contains(debugReplies)) {
            throw check.invalid("--debug-replies", debugReplies + " is not one of always, loopback, no-amplification, "
                    + "never");
        }
    }

    /**
     * The endpoint options these flags give.
     *
     * @param minProcs server minprocs (ignored by clients)
     * @param maxProcs server maxprocs (ignored by clients)
     * @param defaults what the side takes for flags not given ({@link #SERVER_DEFAULTS} or {@link #CLIENT_DEFAULTS})
     * @return the options
     */
    PerfEndpointOptions toOptions(int minProcs, int maxProcs, SideDefaults defaults) {
        int window = maxWindow == null ? 0 : maxWindow;
        return new PerfEndpointOptions(twind != null ? twind : window, rwind != null ? rwind : window, !noJumbo,
                jumboMax, maxMtu == null ? 0 : maxMtu, udpBufferKib == null ? 0 : udpBufferKib * 1024,
                minPeerTimeoutMs, hardAcksOnly, transport != null ? transport : defaults.transport(), minProcs, maxProcs,
                !noStats, congestionControl,
                debugReplies, !noGso, fragmentJumbograms, spinUs, sliceUs != null ? sliceUs : defaults.sliceUs(),
                !noGro);
    }

    /** Converts {@code --transport} words. */
    static final class TransportKindConverter implements ITypeConverter<TransportKind> {
        @Override
        public TransportKind convert(String value) {
            try {
                return TransportKind.parse(value);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException("'" + value + "' is not one of nio, epoll, auto");
            }
        }
    }
}
