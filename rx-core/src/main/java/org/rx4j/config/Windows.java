// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.config;

/**
 * The largest flow-control windows of an endpoint's calls (rx-wire-facts.md §5 "Sizes and windows"). The sender's
 * window is further capped by the rwind its peer advertises; the congestion window grows inside it
 * ({@link Congestion}).
 *
 * @param maxTwind maximum transmit window (twind), packets, 1..255 (default 32, OpenAFS's rx_maxSendWindow); the
 *     peer's rwind caps it further
 * @param maxRwind maximum receive window (rwind) advertised, packets, 1..255 (default 32, OpenAFS's
 *     rx_maxReceiveWindow)
 */
public record Windows(int maxTwind, int maxRwind) {
    /** OpenAFS 1.8's windows: 32 packets each way. */
    public static final Windows DEFAULTS = new Windows(32, 32);

    /**
     * Checks the ranges listed with the components.
     *
     * @throws IllegalArgumentException naming the first setting out of range
     */
    public Windows {
        SettingCheck.range("maxTwind", maxTwind, 1, 255);
        SettingCheck.range("maxRwind", maxRwind, 1, 255);
    }
}
