// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine.cc;

/**
 * Congestion window of one call's sender, counted in packets (rx-wire-facts.md §8). The engine sends new packets while
 * {@code seq < tfirst + min(twind, nSoftAcked + cwnd())} (§5 "transmit limit") and feeds back what each ACK shows.
 *
 * <p>The engine classifies every received ACK that acknowledges something new:
 * <ul>
 *   <li>no holes: {@link #onAck} (a "clean" ack);</li>
 *   <li>a NACK below the highest soft-acked packet: {@link #onNackedAck}, whose result says whether to fast-retransmit
 *       the holes now.</li>
 * </ul>
 * A retransmission timeout goes to {@link #onTimeout}. Seq arguments are 32-bit Rx seqs compared wrap-safe.
 *
 * <p>Implementations are pure, deterministic and allocation-free; not thread-safe (owned by the call's event loop).
 */
public interface CongestionController {
    /** OpenAFS {@code rx_nackThreshold}: consecutive ACKs with holes that trigger fast recovery, 3. */
    int DEFAULT_NACK_THRESHOLD = 3;
    /** Largest window Rx can express: RX_MAXACKS = rx_maxWindow = 255 packets (rx-wire-facts.md §5). */
    int MAX_WINDOW = 255;

    /** @return the current congestion window, packets, 1..the last {@link #setMaxCwnd} value */
    int cwnd();

    /** @return the slow-start threshold, packets: below it the window grows per acked packet, above it per window */
    int ssthresh();

    /** @return true between entering fast recovery and the clean ack that covers the recovery point (or a timeout) */
    boolean inRecovery();

    /**
     * Reports a received ACK that newly acknowledges packets (hard or soft) and shows no hole. Grows the window (slow
     * start below ssthresh, congestion avoidance above) unless in recovery; resets the count of consecutive ACKs with
     * holes; leaves recovery when {@code highestAckedSeq} reaches the recovery point.
     *
     * @param newlyAcked packets this ACK acknowledges for the first time, >= 1
     * @param highestAckedSeq highest seq this ACK acknowledges; as it has no hole, every seq up to it is acked
     * @param highestSentSeq highest seq sent so far on the call (informational; implementations may ignore it)
     * @throws IllegalArgumentException if {@code newlyAcked < 1}
     */
    void onAck(int newlyAcked, int highestAckedSeq, int highestSentSeq);

    /**
     * Reports a received ACK that shows holes (a NACK below its highest soft-acked packet). After
     * {@link #DEFAULT_NACK_THRESHOLD} such ACKs in a row with no clean ack between them, enters fast recovery (at most
     * once per recovery episode) with {@code highestSentSeq} as the recovery point.
     *
     * @param highestSentSeq highest seq sent so far on the call; becomes the recovery point on entry
     * @return true exactly when fast recovery was entered by this call: the engine should resend the holes now
     */
    boolean onNackedAck(int highestSentSeq);

    /**
     * Reports a retransmission timeout (RTO expiry): the window collapses and any recovery episode ends.
     *
     * @param twind the call's current send window, packets, >= 1
     * @throws IllegalArgumentException if {@code twind < 1}
     */
    void onTimeout(int twind);

    /**
     * Sets the largest window allowed, following the transmit window; a current window above it is lowered to it.
     *
     * @param packets the new cap, packets, 1..{@link #MAX_WINDOW}
     * @throws IllegalArgumentException if {@code packets} is outside 1..255
     */
    void setMaxCwnd(int packets);

    /**
     * Reports the delivery-rate sample of an ACK (every ACK that was read, after {@link #onAck} or
     * {@link #onNackedAck}). Model-based controllers (BBR) run on these; the default ignores them.
     *
     * @param now the ACK's arrival, ns
     * @param rs the sample (reused by the caller: read it now)
     */
    default void onRateSample(long now, RateSample rs) {
    }

    /**
     * The window one call may fill now. Controllers whose window belongs to the whole path (shared by every call to
     * a peer) give each call what the others leave; the default is {@link #cwnd()}.
     *
     * @param callInFlight this call's packets in flight
     * @return packets this call may have in flight, >= 1
     */
    default int sendWindow(int callInFlight) {
        return cwnd();
    }

    /**
     * Pacing: the earliest time the next datagram may leave.
     *
     * @return time, ns on the engine's clock; {@link Long#MIN_VALUE} when the controller does not pace (default)
     */
    default long earliestSendNs() {
        return Long.MIN_VALUE;
    }

    /**
     * Whether the sender asks for an ACK on every datagram (REQUEST_ACK). A model-based controller takes one
     * delivery-rate sample per ACK; an rx4j receiver acks only every {@code RxConfig.ackPolicy().ackRate()} packets
     * within a burst (docs/engine.md, "Receiver ACK policy"), and such aggregated samples bias a max-bandwidth filter
     * (two BBR flows on one bottleneck in the simulator: 54.5 / 39.0 Mbit/s at an ack rate of 8, 47.5 / 46.6 at 2).
     *
     * @return true to set REQUEST_ACK on every datagram but a new LAST_PACKET one; false by default
     */
    default boolean wantsAckPerDatagram() {
        return false;
    }

    /**
     * A DATA datagram left (new data or a retransmission); a pacing controller moves its schedule.
     *
     * @param now send time, ns
     * @param packets DATA packets in the datagram, >= 1
     */
    default void onDatagramSent(long now, int packets) {
    }

    /** The call ended: a controller that shares state with other calls leaves it (default: nothing). */
    default void close() {
    }

    /**
     * Read-only state for statistics (rxperf {@code -D}, {@code --json}).
     *
     * @return the controller's name and phase, e.g. "newreno/slow-start" or "bbr/PROBE_BW_CRUISE"
     */
    default String mode() {
        return inRecovery() ? "recovery" : cwnd() < ssthresh() ? "slow-start" : "congestion-avoidance";
    }

    /** @return the controller's bottleneck-bandwidth estimate, packets per second; 0 when it keeps none (default) */
    default double bandwidthPps() {
        return 0;
    }

    /** @return the pacing rate, packets per second; 0 when the controller does not pace (default) */
    default double pacingRatePps() {
        return 0;
    }

    /** @return the controller's min-RTT estimate, ns; 0 when it keeps none (default) */
    default long minRttNs() {
        return 0;
    }
}
