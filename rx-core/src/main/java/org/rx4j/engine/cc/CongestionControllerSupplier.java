// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine.cc;

import org.rx4j.config.CongestionControl;

/**
 * Makes the congestion controller of each new call, as Aeron passes strategy suppliers: the endpoint picks one
 * from its configuration ({@link #of}) and every call's sender gets a fresh controller from it.
 */
@FunctionalInterface
public interface CongestionControllerSupplier {
    /**
     * @param initialCwnd the starting window, packets, 1..maxCwnd
     * @param initialSsthresh the starting slow-start threshold, packets, >= 1
     * @param maxCwnd the largest window, packets (the endpoint's maxTwind), 1..255
     * @return a new controller for one call
     * @throws IllegalArgumentException if a value is outside its range
     */
    CongestionController newController(int initialCwnd, int initialSsthresh, int maxCwnd);

    /**
     * Makes a controller for a call to a peer whose shared state is {@code path}; controllers with a per-path model
     * (BBR) use it, the others ignore it (the default).
     *
     * @param initialCwnd the starting window, packets, 1..maxCwnd
     * @param initialSsthresh the starting slow-start threshold, packets, >= 1
     * @param maxCwnd the largest window, packets (the endpoint's maxTwind), 1..255
     * @param path the peer's shared congestion state
     * @return a new controller for one call
     * @throws IllegalArgumentException if a value is outside its range
     */
    default CongestionController newController(int initialCwnd, int initialSsthresh, int maxCwnd, PathModel path) {
        return newController(initialCwnd, initialSsthresh, maxCwnd);
    }

    /**
     * @param kind the configured algorithm
     * @return its supplier with OpenAFS's NACK threshold ({@link CongestionController#DEFAULT_NACK_THRESHOLD})
     */
    static CongestionControllerSupplier of(CongestionControl kind) {
        return of(kind, CongestionController.DEFAULT_NACK_THRESHOLD);
    }

    /**
     * @param kind the configured algorithm
     * @param nackThreshold the loss-detection policy: consecutive ACKs with a hole before a fast retransmit, &gt;= 1
     *     (RxConfig.congestion().nackThreshold())
     * @return its supplier: {@link NewRenoCongestionController}, {@link FixedWindowCongestionController} with a
     *     window of {@code maxCwnd} (the transmit window alone limits the sender), or {@link BbrCongestionController}
     *     on the peer's {@link BbrModel}
     */
    static CongestionControllerSupplier of(CongestionControl kind, int nackThreshold) {
        return switch (kind) {
            case NEWRENO -> (initialCwnd, initialSsthresh, maxCwnd) ->
                    new NewRenoCongestionController(initialCwnd, initialSsthresh, maxCwnd, nackThreshold);
            case FIXED_WINDOW -> (initialCwnd, initialSsthresh, maxCwnd) ->
                    new FixedWindowCongestionController(maxCwnd, nackThreshold);
            case BBR -> new CongestionControllerSupplier() {
                @Override
                public CongestionController newController(int initialCwnd, int initialSsthresh, int maxCwnd) {
                    return new BbrCongestionController(new PathModel(1), initialCwnd, maxCwnd, nackThreshold);
                }

                @Override
                public CongestionController newController(int initialCwnd, int initialSsthresh, int maxCwnd,
                        PathModel path) {
                    return new BbrCongestionController(path, initialCwnd, maxCwnd, nackThreshold);
                }
            };
        };
    }
}
