// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine.cc;

/**
 * The argument checks the congestion controllers (and the jumbogram sizer) apply to what the engine hands them, in
 * one wording, so that NewReno, fixed-window and BBR reject the same values the same way.
 */
final class ControllerArgs {
    private ControllerArgs() {
    }

    /**
     * Checks a window size or cap.
     *
     * @param name what the value is, for the message (e.g. "window cap")
     * @param packets the value, packets
     * @return {@code packets}
     * @throws IllegalArgumentException unless 1 &lt;= packets &lt;= {@link CongestionController#MAX_WINDOW} (255)
     */
    static int window(String name, int packets) {
        if (packets < 1 || packets > CongestionController.MAX_WINDOW) {
            throw new IllegalArgumentException(name + " must be 1.." + CongestionController.MAX_WINDOW
                    + " packets, got " + packets);
        }
        return packets;
    }

    /**
     * Checks a count the engine never passes below 1 (newly acked packets, the send window at a timeout).
     *
     * @param name the parameter's name, for the message
     * @param value the value
     * @throws IllegalArgumentException if {@code value < 1}
     */
    static void atLeastOne(String name, int value) {
        if (value < 1) {
            throw new IllegalArgumentException(name + " must be >= 1, got " + value);
        }
    }
}
