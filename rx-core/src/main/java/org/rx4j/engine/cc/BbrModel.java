// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine.cc;

/**
 * A BBR-class model of one network path, written from the IETF draft draft-ietf-ccwg-bbr (BBR version 3): it estimates
 * the bottleneck bandwidth (windowed max of delivery-rate samples over two ProbeBW cycles) and the round-trip
 * propagation time (min RTT over 10 s, refreshed by ProbeRTT every 5 s), and from them sets a pacing rate
 * ({@code pacing_gain × bw}) and a window ({@code cwnd_gain × BDP}). States: Startup, Drain, ProbeBW (Down, Cruise,
 * Refill, Up) and ProbeRTT (draft §4.3). Loss is not read as congestion unless a sample's loss rate exceeds the
 * draft's threshold (2% of what was in flight, §4.5.10); then the long-term inflight bound drops to
 * {@code max(inflight at send, 0.7 × target)}. While not probing, a round with loss bounds the short-term model by
 * the latest delivery rate and volume (so random loss costs at most what was just measured, never a halving).
 *
 * <p>Counted in packets (Rx windows are in packets, ≤ 255); bandwidth in packets per second; times in ns on the
 * engine's clock. One model per peer ({@link PathModel}): every call to the peer feeds its ACKs' samples to
 * {@link #onAck} and sends through its pacer ({@link #earliestSendNs}, {@link #onSent}). Deterministic (a seeded
 * generator picks the probing wait), allocation-free, not thread-safe (the engine's thread).
 */
public final class BbrModel {
    /** The model's states (draft §4.3). */
    public enum State {
        /** Exponential growth until the bandwidth stops growing (or loss is high). */
        STARTUP,
        /** Drains the queue Startup built. */
        DRAIN,
        /** ProbeBW: paces below the estimate to drain any queue. */
        PROBE_BW_DOWN,
        /** ProbeBW: paces at the estimate, with headroom below the long-term inflight bound. */
        PROBE_BW_CRUISE,
        /** ProbeBW: one round at the estimate, refilling the pipe before probing. */
        PROBE_BW_REFILL,
        /** ProbeBW: paces above the estimate to probe for more bandwidth. */
        PROBE_BW_UP,
        /** Cuts inflight to half a BDP for 200 ms and a round, to see the min RTT again. */
        PROBE_RTT
    }

    static final double STARTUP_PACING_GAIN = 2.77;
    static final double STARTUP_CWND_GAIN = 2.0;
    static final double DRAIN_PACING_GAIN = 0.35;
    static final double DOWN_PACING_GAIN = 0.90;
    static final double UP_PACING_GAIN = 1.25;
    static final double DEFAULT_CWND_GAIN = 2.0;
    static final double UP_CWND_GAIN = 2.25;
    static final double PROBE_RTT_CWND_GAIN = 0.5;
    static final double LOSS_THRESH = 0.02;
    static final double BETA = 0.7;
    static final double HEADROOM = 0.15;
    static final double PACING_MARGIN = 0.01;
    static final int MIN_PIPE_CWND = 4;
    static final long MIN_RTT_FILTER_NS = 10_000_000_000L;
    static final long PROBE_RTT_INTERVAL_NS = 5_000_000_000L;
    static final long PROBE_RTT_DURATION_NS = 200_000_000L;
    static final int STARTUP_FULL_LOSS_COUNT = 6;
    private static final int UNBOUNDED = Integer.MAX_VALUE;
    private static final long NO_RTT = Long.MAX_VALUE;

    private enum AckPhase { INIT, PROBE_STARTING, PROBE_FEEDBACK, PROBE_STOPPING, REFILLING }

    private final DeliveryRate rate;
    private final int initialCwnd;
    private long rng;

    private State state = State.STARTUP;
    private double pacingGain = STARTUP_PACING_GAIN;
    private double cwndGain = STARTUP_CWND_GAIN;
    private int cwnd;
    private int priorCwnd;
    private double pacingRatePps;
    private long nextSendNs;

    // Bandwidth: max filter over two ProbeBW cycles, and the short-term bound.
    private double bwThisCycle;
    private double bwLastCycle;
    private double maxBw;
    private double bw;
    private double bwShortterm = Double.POSITIVE_INFINITY;
    private double bwLatest;
    private int inflightLatest;
    private int inflightLongterm = UNBOUNDED;
    private int inflightShortterm = UNBOUNDED;

    // RTT.
    private long minRttNs = NO_RTT;
    private long minRttStampNs;
    private long probeRttMinDelayNs = NO_RTT;
    private long probeRttMinStampNs;
    private boolean minRttStampSet;
    private long probeRttDoneStampNs;
    private boolean probeRttRoundDone;
    private boolean probeRttExpired;

    // Rounds.
    private long nextRoundDelivered;
    private long roundCount;
    private boolean roundStart;
    private long lossRoundDelivered;
    private boolean lossRoundStart;
    private boolean lossInRound;
    private int lostInRound;
    private int deliveredInRound;
    private int lossEventsInRound;
    /** The round that just ended lost more than {@link #LOSS_THRESH} of its packets. */
    private boolean roundLossTooHigh;
    private long lossyRounds;
    private long shortTermCuts;

    // Startup.
    private boolean fullBwReached;
    private double fullBw;
    private int fullBwCount;

    // ProbeBW.
    private AckPhase ackPhase = AckPhase.INIT;
    private long cycleStampNs;
    private long bwProbeWaitNs;
    private int roundsSinceBwProbe;
    private int bwProbeSamples;
    private int probeUpCnt = UNBOUNDED;
    private int probeUpAcked;
    private int probeUpRounds;
    private double upBw;
    private int upRoundsFlat;
    private long upStartNs;

    /**
     * @param rate the path's delivery-rate estimator (delivered count, packets in flight)
     * @param initialCwnd the window before any bandwidth sample, packets, >= 1
     * @param seed seeds the randomized probing wait
     */
    BbrModel(DeliveryRate rate, int initialCwnd, long seed) {
        this.rate = rate;
        this.initialCwnd = Math.max(MIN_PIPE_CWND, initialCwnd);
        this.cwnd = this.initialCwnd;
        this.rng = seed == 0 ? 0x9E3779B97F4A7C15L : seed;
    }

    private double random() {
        rng ^= rng << 13;
        rng ^= rng >>> 7;
        rng ^= rng << 17;
        return (rng >>> 11) * 0x1.0p-53;
    }

    // =====================================================================================
    // Per ACK

    /**
     * Updates the model from one ACK's sample and sets the pacing rate and window (draft §4.2 "BBRUpdateOnACK").
     *
     * @param now the ACK's arrival, ns
     * @param rs the ACK's sample
     */
    public void onAck(long now, RateSample rs) {
        if (rs.newlyAcked == 0 && rs.newlyLost == 0 && rs.rttNs < 0) {
            return;
        }
        updateLatestDeliverySignals(rs);
        updateCongestionSignals(rs);
        checkStartupDone(rs);
        checkDrainDone(now);
        updateProbeBwCyclePhase(now, rs);
        updateMinRtt(now, rs);
        checkProbeRtt(now, rs);
        advanceLatestDeliverySignals(rs);
        bw = Math.min(maxBw, bwShortterm);
        setPacingRate(rs);
        setCwnd(rs);
    }

    /**
     * A retransmission timeout of one call: the window falls to what is still in flight on the path plus one
     * (§4.6.4: {@code cwnd = inflight + 1}, at least the minimum pipe) and grows back as ACKs return. Call after the
     * call's packets were marked lost, so only the other calls' packets count.
     */
    public void onTimeout() {
        priorCwnd = Math.max(priorCwnd, cwnd);
        cwnd = Math.max(MIN_PIPE_CWND, Math.min(cwnd, rate.inFlight() + 1));
    }

    private void updateLatestDeliverySignals(RateSample rs) {
        lossRoundStart = false;
        bwLatest = Math.max(bwLatest, rs.ratePps());
        inflightLatest = (int) Math.max(inflightLatest, rs.delivered);
        if (rs.newlyAcked > 0 && rs.priorDelivered - lossRoundDelivered >= 0) {
            lossRoundDelivered = rs.totalDelivered;
            lossRoundStart = true;
        }
    }

    private void advanceLatestDeliverySignals(RateSample rs) {
        if (lossRoundStart) {
            bwLatest = rs.ratePps();
            inflightLatest = (int) rs.delivered;
        }
    }

    private void updateCongestionSignals(RateSample rs) {
        updateRound(rs);
        double r = rs.ratePps();
        if (r > 0 && (r >= maxBw || !rs.appLimited)) {
            bwThisCycle = Math.max(bwThisCycle, r);
            maxBw = Math.max(bwThisCycle, bwLastCycle);
        }
        if (rs.newlyLost > 0) {
            lossInRound = true;
            lostInRound += rs.newlyLost;
            lossEventsInRound += Math.max(1, rs.newLossEvents);
        }
        deliveredInRound += rs.newlyAcked;
        if (!lossRoundStart) {
            return;
        }
        // The draft's Startup test (§4.3.1.3) for every round: more than 2% of the packets lost, in at least 6 loss
        // events (runs of adjacent lost packets: one lost jumbogram is one event), so that a round of a few dozen
        // packets is not judged on one or two random drops.
        roundLossTooHigh = lossEventsInRound >= STARTUP_FULL_LOSS_COUNT
                && lostInRound > LOSS_THRESH * (lostInRound + deliveredInRound);
        if (roundLossTooHigh) {
            lossyRounds++;
        }
        checkStartupHighLoss();
        adaptLowerBoundsFromCongestion();
        lossInRound = false;
        lostInRound = 0;
        lossEventsInRound = 0;
        deliveredInRound = 0;
    }

    private void updateRound(RateSample rs) {
        roundStart = false;
        if (rs.newlyAcked > 0 && rs.priorDelivered - nextRoundDelivered >= 0) {
            nextRoundDelivered = rs.totalDelivered;
            roundCount++;
            roundsSinceBwProbe++;
            roundStart = true;
        }
    }

    private void startRound() {
        nextRoundDelivered = rate.delivered();
    }

    private void advanceMaxBwFilter() {
        bwLastCycle = bwThisCycle;
        bwThisCycle = 0;
        maxBw = bwLastCycle;
    }

    private boolean isProbingBw() {
        return state == State.STARTUP || state == State.PROBE_BW_REFILL || state == State.PROBE_BW_UP;
    }

    private boolean isInProbeBw() {
        return state == State.PROBE_BW_DOWN || state == State.PROBE_BW_CRUISE || state == State.PROBE_BW_REFILL
                || state == State.PROBE_BW_UP;
    }

    /**
     * A round with loss while not probing bounds the short-term model by what the latest round delivered (§4.5.10);
     * here only a round whose loss rate exceeds the draft's threshold counts (2%), so random loss below it leaves the
     * model alone instead of ratcheting it down by sampling noise between two probes.
     */
    private void adaptLowerBoundsFromCongestion() {
        if (isProbingBw() || !lossInRound || !roundLossTooHigh) {
            return;
        }
        if (Double.isInfinite(bwShortterm)) {
            bwShortterm = maxBw;
        }
        if (inflightShortterm == UNBOUNDED) {
            inflightShortterm = cwnd;
        }
        shortTermCuts++;
        bwShortterm = Math.max(bwLatest, BETA * bwShortterm);
        inflightShortterm = Math.max(inflightLatest, (int) (BETA * inflightShortterm));
    }

    private void resetShortTermModel() {
        bwShortterm = Double.POSITIVE_INFINITY;
        inflightShortterm = UNBOUNDED;
    }

    // =====================================================================================
    // Startup and Drain

    private void checkStartupDone(RateSample rs) {
        if (!fullBwReached && roundStart && !rs.appLimited) {
            if (maxBw >= fullBw * 1.25) {
                fullBw = maxBw;
                fullBwCount = 0;
            } else if (++fullBwCount >= 3) {
                fullBwReached = true;
            }
        }
        if (state == State.STARTUP && fullBwReached) {
            state = State.DRAIN;
            pacingGain = DRAIN_PACING_GAIN;
            cwndGain = STARTUP_CWND_GAIN;
        }
    }

    /** Startup ends when a round lost more than 2% and at least 6 packets (§4.3.1.3). */
    private void checkStartupHighLoss() {
        if (fullBwReached || state != State.STARTUP) {
            return;
        }
        if (roundLossTooHigh) {
            fullBwReached = true;
            inflightLongterm = Math.max(bdp(maxBw, 1.0), inflightLatest);
        }
    }

    private void checkDrainDone(long now) {
        if (state == State.DRAIN && rate.inFlight() <= inflight(maxBw, 1.0)) {
            startProbeBwDown(now);
        }
    }

    // =====================================================================================
    // ProbeBW (§4.3.3)

    private void startProbeBwDown(long now) {
        bwLatest = 0;
        inflightLatest = 0;
        lossInRound = false;
        probeUpCnt = UNBOUNDED;
        roundsSinceBwProbe = (int) (random() * 2);
        bwProbeWaitNs = 2_000_000_000L + (long) (random() * 1_000_000_000L);
        cycleStampNs = now;
        ackPhase = AckPhase.PROBE_STOPPING;
        startRound();
        state = State.PROBE_BW_DOWN;
        pacingGain = DOWN_PACING_GAIN;
        cwndGain = DEFAULT_CWND_GAIN;
    }

    private void startProbeBwCruise() {
        state = State.PROBE_BW_CRUISE;
        pacingGain = 1.0;
        cwndGain = DEFAULT_CWND_GAIN;
    }

    private void startProbeBwRefill() {
        resetShortTermModel();
        probeUpRounds = 0;
        probeUpAcked = 0;
        ackPhase = AckPhase.REFILLING;
        startRound();
        state = State.PROBE_BW_REFILL;
        pacingGain = 1.0;
        cwndGain = DEFAULT_CWND_GAIN;
    }

    private void startProbeBwUp(long now) {
        ackPhase = AckPhase.PROBE_STARTING;
        startRound();
        cycleStampNs = now;
        upStartNs = now;
        upBw = maxBw;
        upRoundsFlat = 0;
        state = State.PROBE_BW_UP;
        pacingGain = UP_PACING_GAIN;
        cwndGain = UP_CWND_GAIN;
        raiseInflightLongtermSlope();
    }

    private void updateProbeBwCyclePhase(long now, RateSample rs) {
        if (!fullBwReached) {
            return;
        }
        adaptUpperBounds(now, rs);
        if (!isInProbeBw()) {
            return;
        }
        switch (state) {
            case PROBE_BW_DOWN -> {
                if (isTimeToProbeBw(now)) {
                    return;
                }
                if (isTimeToCruise()) {
                    startProbeBwCruise();
                }
            }
            case PROBE_BW_CRUISE -> isTimeToProbeBw(now);
            case PROBE_BW_REFILL -> {
                if (roundStart) {
                    bwProbeSamples = 1;
                    startProbeBwUp(now);
                }
            }
            case PROBE_BW_UP -> {
                if (isTimeToGoDown(now)) {
                    startProbeBwDown(now);
                }
            }
            default -> { }
        }
    }

    private boolean isTimeToProbeBw(long now) {
        boolean renoTime = roundsSinceBwProbe >= Math.min(targetInflight(), 63);
        if (now - cycleStampNs > bwProbeWaitNs || renoTime) {
            startProbeBwRefill();
            return true;
        }
        return false;
    }

    private boolean isTimeToCruise() {
        int inFlight = rate.inFlight();
        if (inFlight > inflightWithHeadroom()) {
            return false;
        }
        return inFlight <= inflight(maxBw, 1.0);
    }

    /** Up ends when inflight reached 1.25 BDP after a min RTT, or the bandwidth stopped growing for 3 rounds. */
    private boolean isTimeToGoDown(long now) {
        if (roundStart) {
            if (maxBw >= upBw * 1.25) {
                upBw = maxBw;
                upRoundsFlat = 0;
            } else {
                upRoundsFlat++;
            }
        }
        boolean minRttElapsed = minRttNs == NO_RTT || now - upStartNs > minRttNs;
        return (minRttElapsed && rate.inFlight() >= inflight(maxBw, UP_PACING_GAIN)) || upRoundsFlat >= 3;
    }

    private void adaptUpperBounds(long now, RateSample rs) {
        if (ackPhase == AckPhase.PROBE_STARTING && roundStart) {
            ackPhase = AckPhase.PROBE_FEEDBACK;
        }
        if (ackPhase == AckPhase.PROBE_STOPPING && roundStart) {
            if (isInProbeBw() && !rs.appLimited) {
                advanceMaxBwFilter();
            }
            ackPhase = AckPhase.INIT;
        }
        if (checkInflightTooHigh(now, rs)) {
            return;
        }
        if (inflightLongterm == UNBOUNDED) {
            return;
        }
        if (rs.txInFlight > inflightLongterm) {
            inflightLongterm = rs.txInFlight;
        }
        if (state == State.PROBE_BW_UP) {
            probeInflightLongtermUpward(rs);
        }
    }

    /**
     * The draft's loss-rate test (§4.5.10.2), read over a round rather than one sample's window: the round that just
     * ended lost more than 2% of its packets. One sample's window holds about one BDP of packets, where two random
     * losses in 85 packets already exceed 2% at a 0.5% loss rate; a round's count is the draft's loss rate with less
     * noise (the same reading as its Startup exit, §4.3.1.3).
     */
    private boolean checkInflightTooHigh(long now, RateSample rs) {
        boolean tooHigh = lossRoundStart && roundLossTooHigh && rs.txInFlight > 0;
        if (!tooHigh) {
            return false;
        }
        if (bwProbeSamples > 0) {
            bwProbeSamples = 0;
            if (!rs.appLimited) {
                inflightLongterm = Math.max(rs.txInFlight, (int) (targetInflight() * BETA));
            }
            if (state == State.PROBE_BW_UP) {
                startProbeBwDown(now);
            }
        }
        return true;
    }

    private void probeInflightLongtermUpward(RateSample rs) {
        boolean cwndLimited = rate.inFlight() + rs.newlyAcked >= cwnd;
        if (!cwndLimited || cwnd < inflightLongterm) {
            return;
        }
        probeUpAcked += rs.newlyAcked;
        if (probeUpAcked >= probeUpCnt) {
            int delta = probeUpAcked / probeUpCnt;
            probeUpAcked -= delta * probeUpCnt;
            inflightLongterm += delta;
        }
        if (roundStart) {
            raiseInflightLongtermSlope();
        }
    }

    private void raiseInflightLongtermSlope() {
        int growthThisRound = 1 << Math.min(probeUpRounds, 30);
        probeUpRounds = Math.min(probeUpRounds + 1, 30);
        probeUpCnt = Math.max(cwnd / growthThisRound, 1);
    }

    // =====================================================================================
    // Min RTT and ProbeRTT (§4.3.4)

    private void updateMinRtt(long now, RateSample rs) {
        // Decided before this sample refreshes the stamp; ProbeRTT is entered on this flag (§4.3.4.4).
        probeRttExpired = minRttStampSet && now - probeRttMinStampNs > PROBE_RTT_INTERVAL_NS;
        if (rs.rttNs >= 0 && (rs.rttNs < probeRttMinDelayNs || probeRttExpired)) {
            probeRttMinDelayNs = rs.rttNs;
            probeRttMinStampNs = now;
            minRttStampSet = true;
        }
        boolean minRttExpired = now - minRttStampNs > MIN_RTT_FILTER_NS;
        if (probeRttMinDelayNs < minRttNs || (minRttExpired && probeRttMinDelayNs != NO_RTT)) {
            minRttNs = probeRttMinDelayNs;
            minRttStampNs = probeRttMinStampNs;
        }
    }

    private void checkProbeRtt(long now, RateSample rs) {
        if (state != State.PROBE_RTT && probeRttExpired) {
            state = State.PROBE_RTT;
            pacingGain = 1.0;
            cwndGain = PROBE_RTT_CWND_GAIN;
            priorCwnd = Math.max(priorCwnd, cwnd);
            probeRttDoneStampNs = 0;
            ackPhase = AckPhase.PROBE_STOPPING;
            startRound();
        }
        if (state == State.PROBE_RTT) {
            handleProbeRtt(now);
        }
    }

    private void handleProbeRtt(long now) {
        rate.markAppLimited();
        if (probeRttDoneStampNs == 0 && rate.inFlight() <= probeRttCwnd()) {
            probeRttDoneStampNs = now + PROBE_RTT_DURATION_NS;
            probeRttRoundDone = false;
            startRound();
        } else if (probeRttDoneStampNs != 0) {
            if (roundStart) {
                probeRttRoundDone = true;
            }
            if (probeRttRoundDone && now - probeRttDoneStampNs >= 0) {
                probeRttMinStampNs = now;
                cwnd = Math.max(cwnd, priorCwnd);
                priorCwnd = 0;
                resetShortTermModel();
                if (fullBwReached) {
                    startProbeBwDown(now);
                    startProbeBwCruise();
                } else {
                    state = State.STARTUP;
                    pacingGain = STARTUP_PACING_GAIN;
                    cwndGain = STARTUP_CWND_GAIN;
                }
            }
        }
    }

    private int probeRttCwnd() {
        return Math.max(MIN_PIPE_CWND, bdp(bw, PROBE_RTT_CWND_GAIN));
    }

    // =====================================================================================
    // Control parameters (§4.6)

    private void setPacingRate(RateSample rs) {
        // No pacing before the first bandwidth sample: the draft's initial rate (initial window per srtt, §4.6.2)
        // would pace at a few packets per second after one inflated first RTT sample (a peer still starting up);
        // the initial window alone limits the first round.
        if (bw <= 0) {
            return;
        }
        double r = pacingGain * bw * (1 - PACING_MARGIN);
        if (fullBwReached || r > pacingRatePps) {
            pacingRatePps = r;
        }
    }

    private void setCwnd(RateSample rs) {
        int maxInflight = inflight(bw, cwndGain);
        if (fullBwReached) {
            cwnd = Math.min(cwnd + rs.newlyAcked, maxInflight);
        } else if (cwnd < maxInflight || rate.delivered() < initialCwnd) {
            cwnd += rs.newlyAcked;
        }
        cwnd = Math.max(cwnd, MIN_PIPE_CWND);
        if (state == State.PROBE_RTT) {
            cwnd = Math.min(cwnd, probeRttCwnd());
        }
        int cap = UNBOUNDED;
        if (isInProbeBw() && state != State.PROBE_BW_CRUISE) {
            cap = inflightLongterm;
        } else if (state == State.PROBE_RTT || state == State.PROBE_BW_CRUISE) {
            cap = inflightWithHeadroom();
        }
        cap = Math.max(Math.min(cap, inflightShortterm), MIN_PIPE_CWND);
        cwnd = Math.min(cwnd, cap);
        cwnd = Math.min(cwnd, 1 << 20);
    }

    /** @return gain × bw × minRtt, packets, or the initial window before an RTT sample */
    private int bdp(double bandwidthPps, double gain) {
        if (minRttNs == NO_RTT || bandwidthPps <= 0) {
            return initialCwnd;
        }
        return (int) Math.min(1 << 20, gain * bandwidthPps * minRttNs / 1e9);
    }

    /** @return the BDP multiple plus the allowance for ACK and send quanta (2 packets), packets */
    private int inflight(double bandwidthPps, double gain) {
        return bdp(bandwidthPps, gain) + 2 * sendQuantumPackets();
    }

    private int targetInflight() {
        return Math.min(bdp(bw, 1.0), cwnd);
    }

    private int inflightWithHeadroom() {
        if (inflightLongterm == UNBOUNDED) {
            return UNBOUNDED;
        }
        int headroom = Math.max(1, (int) (HEADROOM * inflightLongterm));
        return Math.max(inflightLongterm - headroom, MIN_PIPE_CWND);
    }

    private int sendQuantumPackets() {
        // About 1 ms at the pacing rate, 2..46 packets (46 × 1412 bytes is one 64 KiB burst, draft §4.6.3).
        return (int) Math.max(2, Math.min(46, pacingRatePps / 1000));
    }

    // =====================================================================================
    // Pacing

    /**
     * @return the earliest time the next datagram may leave, ns; {@link Long#MIN_VALUE} while no pacing rate is
     *     known. One send quantum may leave ahead of the schedule.
     */
    public long earliestSendNs() {
        if (pacingRatePps <= 0) {
            return Long.MIN_VALUE;
        }
        return nextSendNs - quantumNs();
    }

    private long quantumNs() {
        return (long) (sendQuantumPackets() * 1e9 / pacingRatePps);
    }

    /**
     * A datagram left: the pacer's schedule moves by its packets at the pacing rate.
     *
     * @param now send time, ns
     * @param packets DATA packets in it, >= 1
     */
    public void onSent(long now, int packets) {
        if (pacingRatePps <= 0) {
            return;
        }
        long start = Math.max(nextSendNs, now - quantumNs());
        nextSendNs = start + (long) (packets * 1e9 / pacingRatePps);
    }

    // =====================================================================================
    // Read-only state

    /** @return the window, packets, >= 4 */
    public int cwnd() {
        return cwnd;
    }

    /** @return the state */
    public State state() {
        return state;
    }

    /** @return the bandwidth the model uses, packets per second (0 before a sample) */
    public double bandwidthPps() {
        return bw;
    }

    /** @return the windowed max bandwidth, packets per second */
    public double maxBandwidthPps() {
        return maxBw;
    }

    /** @return the pacing rate, packets per second (0 before an RTT sample) */
    public double pacingRatePps() {
        return pacingRatePps;
    }

    /** @return the min RTT, ns, or 0 before a sample */
    public long minRttNs() {
        return minRttNs == NO_RTT ? 0 : minRttNs;
    }

    /** @return the long-term inflight bound, packets, or -1 while unbounded */
    public int inflightLongterm() {
        return inflightLongterm == UNBOUNDED ? -1 : inflightLongterm;
    }

    /** @return true once Startup found the pipe full */
    public boolean fullBandwidthReached() {
        return fullBwReached;
    }

    /** @return rounds whose loss rate exceeded the threshold (2%) */
    public long lossyRounds() {
        return lossyRounds;
    }

    /** @return times the short-term model was bounded after a lossy round */
    public long shortTermCuts() {
        return shortTermCuts;
    }

    /** @return round trips counted so far */
    public long rounds() {
        return roundCount;
    }
}
