// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine.pmtu;

import org.rx4j.wire.RxConstants;

/**
 * What the path to one peer is known to carry, and when it may be probed again: the large packet size a padded PING
 * proved, the limit a probe ladder found below the usual size, the size the peer verified, how many jumbogram
 * sub-packets the path carries, and the probe schedules that go with them (docs/engine.md "Packet size", "Path MTU
 * below one full packet"). One per peer, shared by all calls to it. Its public methods are the sizes the peer's
 * calls read (and {@link #onVerified}, a size the peer is known to carry); only the calls' {@link PathMtuProber}s
 * change it, through the package-private rest. Pure state: no clock, every time is an engine-clock {@code now} in ns
 * passed in. Runs on the engine's thread.
 */
public final class PathMtuState {
    /** How often a path held back (to single packets, or below a large size) is probed again, ns. */
    public static final long PROBE_INTERVAL_NS = 5_000_000_000L;
    /** How long a path held below its usual packet size waits before probing upward again, ns. */
    public static final long RAISE_INTERVAL_NS = 10_000_000_000L;
    /**
     * Large-packet probes repeated after 2 srtt before falling back to {@link #PROBE_INTERVAL_NS}: the first probe
     * often reaches a server call still in PRECALL, which answers no PING (docs/robustness.md "Rule: unsolicited
     * traffic, loops and amplification"), or is lost.
     */
    public static final int LARGE_PROBE_QUICK_TRIES = 3;
    /** Data bytes of a client's first packet on a path not yet proven at full size: RX_MIN_PACKET_SIZE − 28 (§5). */
    public static final int FIRST_PACKET_DATA = RxConstants.MIN_PACKET_SIZE - RxConstants.HEADER_SIZE;

    /**
     * Most jumbogram sub-packets the path is believed to carry: unlimited until a retransmission timeout hits a call
     * sending jumbograms, then 1 until a padded PING of the jumbogram's size is answered.
     */
    private int jumboCap = Integer.MAX_VALUE;
    /** When the next jumbogram probe may go out while {@link #jumboCap} holds jumbograms back, ns. */
    private long nextJumboProbeNs;
    /**
     * Largest Rx packet (header + data), bytes, that a padded PING proved this path carries and that calls may cut
     * their data into; {@link RxConstants#REMOTE_PACKET_SIZE} until such a proof. Only ever above that default: a
     * path narrower than that is {@link #pathMtu}.
     */
    private int provenPacketSize = RxConstants.REMOTE_PACKET_SIZE;
    /** True once a large-packet probe went out; then {@link #lastLargeProbeNs} is valid. */
    private boolean largeProbeSent;
    /** When the last large-packet probe went out (or the last large-packet timeout hit), ns. */
    private long lastLargeProbeNs;
    /** Large-packet probes sent since the last proof (the first {@link #LARGE_PROBE_QUICK_TRIES} are quick). */
    private int largeProbeTries;
    /**
     * Largest Rx packet (header + data), bytes, the path carried when a probe ladder last found it narrower than the
     * packets being sent; {@link Integer#MAX_VALUE} while no such limit is known. Raised again by upward probes.
     */
    private int pathMtu = Integer.MAX_VALUE;
    /** When the next upward probe may go out while {@link #pathMtu} holds packets below their usual size, ns. */
    private long nextRaiseNs;
    /** True once a downward probe ladder went out; then {@link #lastLadderNs} is valid. */
    private boolean ladderSent;
    /** When the last downward probe ladder went out, ns. */
    private long lastLadderNs;
    /** Largest DATA packet (header + data), bytes, of ours the peer acknowledged, or probe it answered; 0 for none. */
    private int verifiedPacketSize;
    /** True once a full-size verification PING went out; then {@link #lastVerifyProbeNs} is valid. */
    private boolean verifyProbeSent;
    /** When the last full-size verification PING went out, ns. */
    private long lastVerifyProbeNs;

    /** A path nothing is known about yet: default packet size, no limit, jumbograms allowed. */
    public PathMtuState() {
    }

    // Sizes

    /**
     * Data bytes per DATA packet a call cuts now: the proven size if the peer still advertises room for it, else
     * {@code defaultData}; never above {@code target} nor the path's limit, never below 492 (a 520-byte packet,
     * the smallest every Rx host accepts, §5).
     *
     * @param target the largest packet worth probing for toward the peer (its maxMTU, ifMTU, our largest), bytes
     * @param defaultData the configured data bytes per packet (1412 with jumbograms, rx-wire-facts.md §4)
     * @return data bytes (rxnull: packet size − 28)
     */
    public int packetDataSize(int target, int defaultData) {
        return packetDataSize(target, defaultData, pathMtu);
    }

    /**
     * @param target as for {@link #packetDataSize}, bytes
     * @param defaultData as for {@link #packetDataSize}, bytes
     * @return the Rx packet size (header + data, bytes) calls would cut with no path limit: what an upward probe
     *     tries
     */
    public int usualPacketSize(int target, int defaultData) {
        return RxConstants.HEADER_SIZE + packetDataSize(target, defaultData, Integer.MAX_VALUE);
    }

    private int packetDataSize(int target, int defaultData, int pathLimit) {
        int size = Math.min(provenPacketSize, target);
        int data = size > RxConstants.REMOTE_PACKET_SIZE ? size - RxConstants.HEADER_SIZE : defaultData;
        // Never above what the peer advertises (an OpenAFS peer told -m 1000) nor what the path was found to carry;
        // never below the smallest packet every Rx host accepts (520 bytes, §5).
        int cap = Math.min(target, pathLimit) - RxConstants.HEADER_SIZE;
        return data <= cap ? data : Math.max(cap, FIRST_PACKET_DATA);
    }

    /**
     * A client's first packet of a call is cut small until the path carried a full-size packet of ours, so the server
     * hears of the call and can answer the probes that find the path's MTU.
     *
     * @param dataSize data bytes per packet the call cuts now
     * @return data bytes for the call's first packet: {@code dataSize}, or at most {@link #FIRST_PACKET_DATA}
     */
    public int firstPacketData(int dataSize) {
        return verifiedPacketSize < RxConstants.HEADER_SIZE + dataSize ? Math.min(dataSize, FIRST_PACKET_DATA)
                : dataSize;
    }

    /**
     * @return the largest Rx packet (header + data) the path carried when a probe ladder last found it narrower than
     *     the packets sent, bytes; {@link Integer#MAX_VALUE} while no such limit is known
     */
    public int pathMtu() {
        return pathMtu;
    }

    /** @return true while a probe ladder's limit holds packets below their usual size */
    boolean limited() {
        return pathMtu != Integer.MAX_VALUE;
    }

    /** @return the largest packet a padded PING proved the path carries (1444 until one did), bytes */
    public int provenPacketSize() {
        return provenPacketSize;
    }

    /** @return the largest packet (header + data) of ours the peer acknowledged or answered as a probe, bytes */
    public int verifiedPacketSize() {
        return verifiedPacketSize;
    }

    /** @return most jumbogram sub-packets the path is believed to carry ({@link Integer#MAX_VALUE}: no cap) */
    public int jumboCap() {
        return jumboCap;
    }

    /**
     * The peer acknowledged a packet, or answered a probe, of {@code bytes}.
     *
     * @param bytes header + data, bytes
     */
    public void onVerified(int bytes) {
        verifiedPacketSize = Math.max(verifiedPacketSize, bytes);
    }

    /** A client request's first packet was lost at a timeout: the next call's first packet is cut small again. */
    void forgetVerified() {
        verifiedPacketSize = 0;
    }

    // Jumbograms

    /**
     * A retransmission timeout hit a call sending jumbograms: holds the path to single packets (which always fit)
     * and probes for jumbograms one interval later, not at once: a probe's answer would hard-ack packets sent an RTO
     * ago and feed the RTT estimator samples of that age.
     *
     * @param now current time, ns
     */
    void holdToSinglePackets(long now) {
        jumboCap = 1;
        nextJumboProbeNs = now + PROBE_INTERVAL_NS;
    }

    /**
     * @param now current time, ns
     * @param want sub-packets per datagram the peer and this endpoint allow
     * @return true when the path is held below {@code want} and the interval for the next jumbogram probe is over
     */
    boolean jumboProbeDue(long now, int want) {
        return jumboCap < want && now - nextJumboProbeNs >= 0;
    }

    /**
     * A jumbogram probe went out: the next one waits an interval (an unanswered one is superseded by it).
     *
     * @param now current time, ns
     */
    void onJumboProbeSent(long now) {
        nextJumboProbeNs = now + PROBE_INTERVAL_NS;
    }

    /**
     * A jumbogram probe was answered.
     *
     * @param packets the sub-packets its size stands for
     * @param want sub-packets per datagram the peer and this endpoint allow: reaching it lifts the cap
     */
    void onJumboProven(int packets, int want) {
        jumboCap = packets >= want ? Integer.MAX_VALUE : Math.max(jumboCap, packets);
    }

    // Large packets

    /**
     * @param now current time, ns
     * @param target the largest packet worth probing for toward the peer, bytes
     * @param quickWaitNs the wait between the first {@link #LARGE_PROBE_QUICK_TRIES} probes (2 srtt, at least the
     *     minimum RTO), ns
     * @return true when {@code target} is above the proven size and a large-packet probe may go out now
     */
    boolean largeProbeDue(long now, int target, long quickWaitNs) {
        if (target <= provenPacketSize) {
            return false;
        }
        long wait = largeProbeTries < LARGE_PROBE_QUICK_TRIES ? quickWaitNs : PROBE_INTERVAL_NS;
        return !largeProbeSent || now - lastLargeProbeNs >= wait;
    }

    /**
     * A large-packet probe went out.
     *
     * @param now current time, ns
     */
    void onLargeProbeSent(long now) {
        largeProbeSent = true;
        largeProbeTries++;
        lastLargeProbeNs = now;
    }

    /**
     * A large-packet probe was answered: data cut from now on may use its size. A size above the proven one starts the
     * quick retries afresh (a larger size may follow); one at or below it changes nothing.
     *
     * @param bytes the probe's size, bytes
     */
    void onLargeProven(int bytes) {
        if (bytes > provenPacketSize) {
            provenPacketSize = bytes;
            largeProbeTries = 0;
        }
        onVerified(bytes);
    }

    /**
     * A retransmission timeout while large packets were in flight: new data goes back to the default size and the
     * path is probed again one interval later, with no quick retries (it just failed).
     *
     * @param now current time, ns
     */
    void onLargeFailed(long now) {
        provenPacketSize = RxConstants.REMOTE_PACKET_SIZE;
        largeProbeSent = true;
        largeProbeTries = LARGE_PROBE_QUICK_TRIES;
        lastLargeProbeNs = now;
    }

    // Probe ladders

    /**
     * @param now current time, ns
     * @return true when a full downward ladder may go out: at most one per {@link #PROBE_INTERVAL_NS} per peer, as
     *     timeouts are common on a lossy path
     */
    boolean ladderAllowed(long now) {
        return !ladderSent || now - lastLadderNs >= PROBE_INTERVAL_NS;
    }

    /**
     * A downward ladder (or the one PING of the known size that stands for it) went out.
     *
     * @param now current time, ns
     */
    void onLadderSent(long now) {
        ladderSent = true;
        lastLadderNs = now;
    }

    /**
     * A downward ladder's answer shows the path carries {@code bytes} but less than before: the limit drops to it,
     * and the next upward probe waits {@link #RAISE_INTERVAL_NS}.
     *
     * @param bytes the largest size answered, bytes
     * @param now current time, ns
     */
    void lowerTo(int bytes, long now) {
        pathMtu = bytes;
        nextRaiseNs = now + RAISE_INTERVAL_NS;
    }

    /**
     * Sets the limit back to what it was before a ladder whose failing size passed (loss, not the path's MTU).
     *
     * @param bytes the limit before the ladder, bytes ({@link Integer#MAX_VALUE} for none)
     */
    void restore(int bytes) {
        pathMtu = bytes;
    }

    /**
     * An upward probe of {@code bytes} was answered.
     *
     * @param bytes its size, bytes
     * @param usual true when it was the usual size: the limit is lifted
     */
    void raiseTo(int bytes, boolean usual) {
        pathMtu = usual ? Integer.MAX_VALUE : Math.max(pathMtu, bytes);
    }

    /**
     * While the path is held below its usual size: whether an upward ladder goes out now. The limit is lifted
     * without a probe when the usual size no longer exceeds it (the peer advertises less now).
     *
     * @param now current time, ns
     * @param usual the usual packet size ({@link #usualPacketSize}), bytes
     * @return true when the ladder should go out (the next one is scheduled {@link #RAISE_INTERVAL_NS} later)
     */
    boolean takeRaise(long now, int usual) {
        if (pathMtu == Integer.MAX_VALUE || now - nextRaiseNs < 0) {
            return false;
        }
        if (usual <= pathMtu) {
            pathMtu = Integer.MAX_VALUE;
            return false;
        }
        nextRaiseNs = now + RAISE_INTERVAL_NS;
        return true;
    }

    // Full-size verification

    /**
     * Whether one PING padded to the full size may go out to prove it: not when the peer verified it, while a
     * path limit is known, nor within {@link #PROBE_INTERVAL_NS} of the last such PING. Records it when true.
     *
     * @param now current time, ns
     * @param full the full packet size, bytes (header + data)
     * @return true when the verification PING goes out now
     */
    boolean takeVerifyProbe(long now, int full) {
        if (verifiedPacketSize >= full || limited()
                || (verifyProbeSent && now - lastVerifyProbeNs < PROBE_INTERVAL_NS)) {
            return false;
        }
        verifyProbeSent = true;
        lastVerifyProbeNs = now;
        return true;
    }
}
