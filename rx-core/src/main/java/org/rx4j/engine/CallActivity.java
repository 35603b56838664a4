package org.rx4j.engine;

/**
 * When one call last sent and received (engine clock, ns): written by the parts that send and receive, read by the
 * liveness timers ({@link CallTimers}) for keepalive, dead time and idle dead time (rx-wire-facts.md §8).
 */
final class CallActivity {
    /** Last packet (DATA or ACK) sent, ns. */
    long lastSendNs;
    /** Last packet of any type received for the call, ns. */
    long lastReceiveNs;
    /** Last DATA packet received, ns. */
    long lastDataReceiveNs;

    /** Restarts every clock at {@code now} (a new call, or a waiting call given its channel), ns. */
    void restart(long now) {
        lastReceiveNs = now;
        lastDataReceiveNs = now;
        lastSendNs = now;
    }
}
