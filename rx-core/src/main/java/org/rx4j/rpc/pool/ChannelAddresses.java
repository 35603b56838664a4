// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc.pool;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import org.rx4j.rpc.channel.RxChannel;
import org.rx4j.rpc.channel.RxChannelConfig;
import org.rx4j.rpc.channel.RxConnectionPool;

/**
 * The addresses of one {@link RxChannel} and their health (docs/embedding.md "Channels"): picks the address of each
 * attempt by the config's {@link RxChannelConfig.Balancing}, ejects an address after its consecutive connection-level
 * failures (Envoy's outlier detection, consecutive_5xx; never more than {@code maxEjectedPercent} of them), and lets
 * one attempt through as a re-probe once its ejection time passed: an answer brings it back into service, another
 * failure ejects it for twice as long (up to the max). Times on the channel's clock. Thread-safe: one lock, held for a
 * scan of the few addresses; pools are only touched outside it.
 */
public final class ChannelAddresses {
    /** How an attempt ended, as far as its address's health goes. */
    public enum Outcome {
        /** The server answered: a result or its own error. */
        ANSWERED,
        /** A connection-level failure: nothing heard, unreachable, or the server's busy or restarting abort. */
        FAILED,
        /** Says nothing about the server: a caller's cancel or deadline, a closing endpoint or channel. */
        NEUTRAL
    }

    /** One address: its pool and health; health fields guarded by the owning {@link ChannelAddresses}. */
    public static final class Address {
        public final InetSocketAddress address;
        public final RxConnectionPool pool;
        final int index;
        public int outstanding;
        int failuresInARow;
        /** Ejections in a row without an answer between, 0 when in service. */
        int ejectionsInARow;
        public boolean ejected;
        long ejectedUntil;
        public boolean probing;
        public long attempts;
        public long failures;
        public long ejections;

        public Address(InetSocketAddress address, RxConnectionPool pool, int index) {
            this.address = address;
            this.pool = pool;
            this.index = index;
        }
    }

    /** One attempt's address, and whether it is the address's re-probe. */
    public record Pick(Address address, boolean probe) {
    }

    private final List<Address> addresses;
    private final RxChannelConfig config;
    private final LongSupplier clock;
    private final int maxEjected;
    private long turn;

    /**
     * @param addresses the channel's addresses, in list order
     * @param config balancing and ejection settings
     * @param clock ns, monotonic
     */
    public ChannelAddresses(List<Address> addresses, RxChannelConfig config, LongSupplier clock) {
        this.addresses = List.copyOf(addresses);
        this.config = config;
        this.clock = clock;
        int share = addresses.size() * config.maxEjectedPercent() / 100;
        this.maxEjected = config.maxEjectedPercent() == 0 ? 0 : Math.max(1, share);
    }

    /** @return the addresses, in list order */
    public List<Address> all() {
        return addresses;
    }

    /**
     * Picks the address of one attempt and counts it outstanding (call {@link #ended} when it ends). An ejected
     * address whose time is up and that has no re-probe running is picked first, as its re-probe. Else an address in
     * service not yet tried by this call, by the balancing; else one already tried; else, when every address is
     * ejected, the one whose ejection ends first (calls still go somewhere).
     *
     * @param tried the addresses this call's earlier attempts used
     * @return the pick
     */
    public synchronized Pick pick(Collection<Address> tried) {
        long now = clock.getAsLong();
        for (Address a : addresses) {
            if (a.ejected && !a.probing && now - a.ejectedUntil >= 0 && !tried.contains(a)) {
                a.probing = true;
                return start(a, true);
            }
        }
        List<Address> fresh = new ArrayList<>();
        List<Address> serving = new ArrayList<>();
        for (Address a : addresses) {
            if (!a.ejected) {
                serving.add(a);
                if (!tried.contains(a)) {
                    fresh.add(a);
                }
            }
        }
        List<Address> from = !fresh.isEmpty() ? fresh : serving;
        if (!from.isEmpty()) {
            return start(balance(from), false);
        }
        Address soonest = addresses.get(0);
        for (Address a : addresses) {
            if (a.ejectedUntil - soonest.ejectedUntil < 0) {
                soonest = a;
            }
        }
        return start(soonest, false);
    }

    private Pick start(Address a, boolean probe) {
        a.outstanding++;
        a.attempts++;
        return new Pick(a, probe);
    }

    private Address balance(List<Address> from) {
        int first = (int) Math.floorMod(turn++, (long) from.size());
        if (config.balancing() == RxChannelConfig.Balancing.ROUND_ROBIN) {
            return from.get(first);
        }
        Address best = null;
        for (int i = 0; i < from.size(); i++) {
            Address a = from.get((first + i) % from.size());
            if (best == null || a.outstanding < best.outstanding) {
                best = a;
            }
        }
        return best;
    }

    /**
     * Records the end of an attempt {@link #pick} started, and ejects or restores its address.
     *
     * @param pick what {@link #pick} returned
     * @param outcome how it ended
     */
    public synchronized void ended(Pick pick, Outcome outcome) {
        Address a = pick.address();
        a.outstanding--;
        if (pick.probe()) {
            a.probing = false;
        }
        switch (outcome) {
            case ANSWERED -> {
                a.failuresInARow = 0;
                if (a.ejected && pick.probe()) {
                    a.ejected = false;
                    a.ejectionsInARow = 0;
                } else if (!a.ejected) {
                    a.ejectionsInARow = 0;
                }
            }
            case FAILED -> {
                a.failures++;
                a.failuresInARow++;
                if (a.ejected) {
                    if (pick.probe()) {
                        eject(a);
                    }
                } else if (a.failuresInARow >= config.consecutiveFailures() && ejectedCount() < maxEjected) {
                    eject(a);
                }
            }
            case NEUTRAL -> {
            }
        }
    }

    private void eject(Address a) {
        a.ejected = true;
        a.ejectionsInARow++;
        a.ejections++;
        a.ejectedUntil = clock.getAsLong() + config.ejectionNs(a.ejectionsInARow);
    }

    private int ejectedCount() {
        int n = 0;
        for (Address a : addresses) {
            n += a.ejected ? 1 : 0;
        }
        return n;
    }

    /**
     * Runs {@code reader} on each address in list order under the lock, so that it reads one consistent state.
     *
     * @param reader reads an address's fields; must not call back into this object
     */
    public synchronized void read(Consumer<Address> reader) {
        addresses.forEach(reader);
    }
}
