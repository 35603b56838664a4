// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.relay;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.Objects;
import java.util.function.Consumer;
import org.rx4j.relay.core.Impairment;

/**
 * A running impairment relay: a UDP relay between a client-facing listen address and a target (server) address
 * that impairs each direction as its {@link Impairment} says. Each client source address gets its own upstream
 * socket, so the target sees distinct peers. Relays any UDP. All work runs on one Netty event loop (epoll when
 * available); the decisions come from the sans-I/O {@link org.rx4j.relay.core.ImpairmentPipeline}.
 *
 * <pre>{@code
 * try (ImpairmentRelay relay = ImpairmentRelay.builder()
 *         .listen(new InetSocketAddress("127.0.0.1", 7010))
 *         .target(new InetSocketAddress("127.0.0.1", 7009))
 *         .both(Impairment.builder().delayMs(5).lossPercent(0.5).build())
 *         .seed(1).start()) {
 *     ... run traffic to 127.0.0.1:7010 ...
 *     RelayStats stats = relay.stats();
 * }
 * }</pre>
 *
 * When the relay falls behind (a datagram released more than {@link Builder#lateThresholdMs} after its due time,
 * or dropped for its own reasons: memory bound, full socket, kernel receive overflow), it sends a warning line
 * (at most one a second) to the warning sink (stderr by default) and counts it. Reference: docs/relay.md.
 */
public final class ImpairmentRelay implements AutoCloseable {
    private final RelayShell shell;

    private ImpairmentRelay(RelayShell shell) {
        this.shell = shell;
    }

    /** @return a builder; {@link Builder#listen} and {@link Builder#target} are required */
    public static Builder builder() {
        return new Builder();
    }

    /** @return the bound listen address (the actual port when 0 was asked for) */
    public InetSocketAddress listenAddress() {
        return shell.listenAddress();
    }

    /** @return the target address datagrams are relayed to */
    public InetSocketAddress target() {
        return shell.target();
    }

    /** @return the seed of the relay's randomness (the one given, or the one drawn at start) */
    public long seed() {
        return shell.seed();
    }

    /** @return "epoll" or "nio": the transport the relay runs on */
    public String transport() {
        return shell.transport();
    }

    /** @return the receive buffer the kernel granted the listen socket, bytes */
    public int receiveBufferBytes() {
        return shell.receiveBufferBytes();
    }

    /**
     * A snapshot of the counters, taken on the relay's loop (waits for it); after {@link #close()}, the final one.
     *
     * @return the snapshot
     */
    public RelayStats stats() {
        return shell.stats();
    }

    /**
     * Stops relaying: datagrams still waiting are discarded (not counted as drops), sockets closed, the loop shut
     * down. Idempotent; blocks up to about 2 s.
     */
    @Override
    public void close() {
        shell.close();
    }

    /** Settings of a relay; every setter validates and throws {@link IllegalArgumentException} naming itself. */
    public static final class Builder {
        InetSocketAddress listen;
        InetSocketAddress target;
        Impairment upstream = Impairment.NONE;
        Impairment downstream = Impairment.NONE;
        Long seed;
        long lateThresholdNs = 1_000_000;
        TransportChoice transport = TransportChoice.AUTO;
        int socketBufferBytes = 8 << 20;
        long maxPendingBytes = 256L << 20;
        int maxFlows = 1024;
        long idleTimeoutNs = 120_000_000_000L;
        Consumer<String> warnings = System.err::println;

        private Builder() {
        }

        /**
         * @param address where clients send (port 0 = ephemeral; see {@link ImpairmentRelay#listenAddress()})
         * @return this
         */
        public Builder listen(InetSocketAddress address) {
            this.listen = Objects.requireNonNull(address, "listen");
            return this;
        }

        /**
         * @param address the server datagrams are relayed to
         * @return this
         */
        public Builder target(InetSocketAddress address) {
            this.target = Objects.requireNonNull(address, "target");
            return this;
        }

        /**
         * @param impairment what happens to client → target datagrams (default {@link Impairment#NONE})
         * @return this
         */
        public Builder upstream(Impairment impairment) {
            this.upstream = Objects.requireNonNull(impairment, "upstream");
            return this;
        }

        /**
         * @param impairment what happens to target → client datagrams (default {@link Impairment#NONE})
         * @return this
         */
        public Builder downstream(Impairment impairment) {
            this.downstream = Objects.requireNonNull(impairment, "downstream");
            return this;
        }

        /**
         * @param impairment the same impairment for both directions (each direction has its own state and random
         *                   stream)
         * @return this
         */
        public Builder both(Impairment impairment) {
            return upstream(impairment).downstream(impairment);
        }

        /**
         * @param seed seed of all randomness (default: drawn at start; {@link ImpairmentRelay#seed()} tells it)
         * @return this
         */
        public Builder seed(long seed) {
            this.seed = seed;
            return this;
        }

        /**
         * @param ms how late after its due time a release may be before it counts as falling behind, ms (> 0;
         *           default 1)
         * @return this
         */
        public Builder lateThresholdMs(double ms) {
            if (!(ms > 0) || Double.isInfinite(ms)) {
                throw new IllegalArgumentException("lateThresholdMs must be > 0, got " + ms);
            }
            this.lateThresholdNs = Math.round(ms * 1e6);
            return this;
        }

        /**
         * @param choice the Netty transport (default {@link TransportChoice#AUTO})
         * @return this
         */
        public Builder transport(TransportChoice choice) {
            this.transport = Objects.requireNonNull(choice, "transport");
            return this;
        }

        /**
         * @param bytes SO_RCVBUF and SO_SNDBUF asked for every socket, bytes (≥ 65536; default 8 MiB; the kernel
         *              caps it at net.core.rmem_max / wmem_max)
         * @return this
         */
        public Builder socketBufferBytes(int bytes) {
            if (bytes < 65536) {
                throw new IllegalArgumentException("socketBufferBytes must be ≥ 65536, got " + bytes);
            }
            this.socketBufferBytes = bytes;
            return this;
        }

        /**
         * @param bytes the relay's own bound on payload waiting per direction, bytes (≥ 65536; default 256 MiB);
         *              beyond it datagrams are dropped as relay-queue (a falling-behind drop)
         * @return this
         */
        public Builder maxPendingBytes(long bytes) {
            if (bytes < 65536) {
                throw new IllegalArgumentException("maxPendingBytes must be ≥ 65536, got " + bytes);
            }
            this.maxPendingBytes = bytes;
            return this;
        }

        /**
         * @param flows most client addresses served at once (≥ 1; default 1024); datagrams from more are dropped
         * @return this
         */
        public Builder maxFlows(int flows) {
            if (flows < 1) {
                throw new IllegalArgumentException("maxFlows must be ≥ 1, got " + flows);
            }
            this.maxFlows = flows;
            return this;
        }

        /**
         * @param seconds a client's upstream socket is closed after this long without traffic, s (≥ 1; default
         *                120; keep it well above the delay)
         * @return this
         */
        public Builder idleTimeoutSeconds(long seconds) {
            if (seconds < 1) {
                throw new IllegalArgumentException("idleTimeoutSeconds must be ≥ 1, got " + seconds);
            }
            this.idleTimeoutNs = seconds * 1_000_000_000L;
            return this;
        }

        /**
         * @param sink receives each falling-behind warning line (default: stderr); called on the relay's loop
         * @return this
         */
        public Builder warnings(Consumer<String> sink) {
            this.warnings = Objects.requireNonNull(sink, "warnings");
            return this;
        }

        /**
         * Binds the listen socket and starts relaying.
         *
         * @return the running relay
         * @throws IllegalStateException if listen or target is missing, or the transport is unavailable
         * @throws IOException if the listen socket cannot be bound (the message names the address)
         */
        public ImpairmentRelay start() throws IOException {
            if (listen == null || target == null) {
                throw new IllegalStateException("listen and target addresses are required");
            }
            return new ImpairmentRelay(RelayShell.start(this));
        }
    }
}
