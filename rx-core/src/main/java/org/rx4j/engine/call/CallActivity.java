// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine.call;

/**
 * When one call last sent and received (engine clock, ns): written by the parts that send and receive, read by the
 * liveness timers ({@link CallTimers}) for keepalive, dead time, idle dead time and send progress (rx-wire-facts.md
 * §8).
 */
public final class CallActivity {
    /** Last packet (DATA or ACK) sent, ns. */
    long lastSendNs;
    /** Last packet of any type received for the call, ns. */
    long lastReceiveNs;
    /** Last DATA packet received, ns. */
    long lastDataReceiveNs;
    /**
     * When the peer last acknowledged new data of ours (firstPacket moved, or an ACKALL), or, if later, when this
     * call put data in flight with none in flight before, ns: the start of the current wait for send progress
     * (docs/robustness.md "Rule: progress, not activity, keeps a server call alive").
     */
    long sendProgressNs;

    /** Restarts every clock at {@code now} (a new call, or a waiting call given its channel), ns. */
    void restart(long now) {
        lastReceiveNs = now;
        lastDataReceiveNs = now;
        lastSendNs = now;
        sendProgressNs = now;
    }
}
