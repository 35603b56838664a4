// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.relay.core;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What the relay does to the datagrams of one direction: an immutable value built with {@link #builder()}.
 * Rates are given in percent (as netem does: {@code lossPercent(0.5)} is 0.5 %), times in milliseconds (fractions
 * allowed); the getters return probabilities in [0, 1] and nanoseconds.
 *
 * <p>The order a datagram meets them in ({@link ImpairmentPipeline}): MTU cap, random loss, Gilbert–Elliott loss,
 * duplication, then each copy: the rate limiter's drop-tail queue, delay + jitter (+ the reorder delay).
 */
public final class Impairment {
    /** No impairment: every datagram is forwarded at once, unchanged. */
    public static final Impairment NONE = builder().build();
    /** Default drop-tail queue of the rate limiter, packets (netem's default {@code limit}). */
    public static final int DEFAULT_QUEUE_PACKETS = 1000;
    /** Default extra delay of a reordered datagram, ms. */
    public static final double DEFAULT_REORDER_DELAY_MS = 1.0;

    private final long delayNs;
    private final long jitterNs;
    private final double lossProbability;
    private final GilbertElliott.Params burstLoss;
    private final double reorderProbability;
    private final long reorderDelayNs;
    private final double duplicateProbability;
    private final long rateBitsPerSecond;
    private final int queuePackets;
    private final int mtuBytes;

    private Impairment(Builder b) {
        this.delayNs = b.delayNs;
        this.jitterNs = b.jitterNs;
        this.lossProbability = b.lossProbability;
        this.burstLoss = b.burstLoss;
        this.reorderProbability = b.reorderProbability;
        this.reorderDelayNs = b.reorderDelayNs;
        this.duplicateProbability = b.duplicateProbability;
        this.rateBitsPerSecond = b.rateBitsPerSecond;
        this.queuePackets = b.queuePackets;
        this.mtuBytes = b.mtuBytes;
    }

    /** @return a builder with no impairment set */
    public static Builder builder() {
        return new Builder();
    }

    /** @return a builder holding this value's settings */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.delayNs = delayNs;
        b.jitterNs = jitterNs;
        b.lossProbability = lossProbability;
        b.burstLoss = burstLoss;
        b.reorderProbability = reorderProbability;
        b.reorderDelayNs = reorderDelayNs;
        b.duplicateProbability = duplicateProbability;
        b.rateBitsPerSecond = rateBitsPerSecond;
        b.queuePackets = queuePackets;
        b.mtuBytes = mtuBytes;
        return b;
    }

    /** @return one-way delay added to every datagram, ns (≥ 0) */
    public long delayNs() {
        return delayNs;
    }

    /** @return jitter, ns: each datagram's delay is {@code delay + U(-jitter, +jitter)}, floored at 0 */
    public long jitterNs() {
        return jitterNs;
    }

    /** @return probability in [0, 1) that a datagram is lost at random (independently of the others) */
    public double lossProbability() {
        return lossProbability;
    }

    /** @return the Gilbert–Elliott bursty-loss parameters, or null when there is no bursty loss */
    public GilbertElliott.Params burstLoss() {
        return burstLoss;
    }

    /** @return probability in [0, 1] that a datagram is held back by {@link #reorderDelayNs()} (others overtake it) */
    public double reorderProbability() {
        return reorderProbability;
    }

    /** @return extra delay of a reordered datagram, ns */
    public long reorderDelayNs() {
        return reorderDelayNs;
    }

    /** @return probability in [0, 1] that a datagram is sent twice (each copy delayed independently) */
    public double duplicateProbability() {
        return duplicateProbability;
    }

    /** @return rate limit of the direction in bits per second of UDP payload, or 0 for no limit */
    public long rateBitsPerSecond() {
        return rateBitsPerSecond;
    }

    /** @return the rate limiter's drop-tail queue, packets (including the one being serialised) */
    public int queuePackets() {
        return queuePackets;
    }

    /** @return largest UDP payload forwarded, bytes (larger ones are dropped), or 0 for no cap */
    public int mtuBytes() {
        return mtuBytes;
    }

    /** @return true when this value changes nothing (every datagram forwarded at once) */
    public boolean isNone() {
        return delayNs == 0 && jitterNs == 0 && lossProbability == 0 && burstLoss == null
                && reorderProbability == 0 && duplicateProbability == 0 && rateBitsPerSecond == 0 && mtuBytes == 0;
    }

    /** @return e.g. {@code delay 5 ms, loss 0.5 %, rate 100 Mbit/s queue 1000} or {@code none} */
    @Override
    public String toString() {
        if (isNone()) {
            return "none";
        }
        List<String> parts = new ArrayList<>();
        if (delayNs != 0) {
            parts.add("delay " + ms(delayNs) + " ms");
        }
        if (jitterNs != 0) {
            parts.add("jitter " + ms(jitterNs) + " ms");
        }
        if (lossProbability != 0) {
            parts.add("loss " + pct(lossProbability) + " %");
        }
        if (burstLoss != null) {
            parts.add("burst-loss " + burstLoss);
        }
        if (reorderProbability != 0) {
            parts.add("reorder " + pct(reorderProbability) + " % by " + ms(reorderDelayNs) + " ms");
        }
        if (duplicateProbability != 0) {
            parts.add("duplicate " + pct(duplicateProbability) + " %");
        }
        if (rateBitsPerSecond != 0) {
            parts.add("rate " + rateBitsPerSecond + " bit/s queue " + queuePackets);
        }
        if (mtuBytes != 0) {
            parts.add("mtu " + mtuBytes + " B");
        }
        return String.join(", ", parts);
    }

    static String ms(long ns) {
        return fmt(ns / 1e6);
    }

    static String pct(double p) {
        return fmt(p * 100);
    }

    private static String fmt(double v) {
        String s = String.format(Locale.ROOT, "%.4f", v);
        s = s.replaceAll("0+$", "");
        return s.endsWith(".") ? s.substring(0, s.length() - 1) : s;
    }

    /**
     * Builds an {@link Impairment}. Every setter checks its argument and throws {@link IllegalArgumentException}
     * naming the parameter when it is out of range (negative, NaN, or above 100 %).
     */
    public static final class Builder {
        private long delayNs;
        private long jitterNs;
        private double lossProbability;
        private GilbertElliott.Params burstLoss;
        private double reorderProbability;
        private long reorderDelayNs = msToNs(DEFAULT_REORDER_DELAY_MS, "reorderDelayMs");
        private double duplicateProbability;
        private long rateBitsPerSecond;
        private int queuePackets = DEFAULT_QUEUE_PACKETS;
        private int mtuBytes;

        private Builder() {
        }

        /**
         * @param ms one-way delay, ms (≥ 0, fractions allowed)
         * @return this
         */
        public Builder delayMs(double ms) {
            this.delayNs = msToNs(ms, "delayMs");
            return this;
        }

        /**
         * @param ms jitter, ms (≥ 0): each datagram's delay is drawn uniformly from {@code [delay - jitter,
         *           delay + jitter]} (floored at 0); jitter larger than the gap between datagrams reorders them
         * @return this
         */
        public Builder jitterMs(double ms) {
            this.jitterNs = msToNs(ms, "jitterMs");
            return this;
        }

        /**
         * @param percent random loss, % in [0, 100)
         * @return this
         */
        public Builder lossPercent(double percent) {
            double p = percentToProbability(percent, "lossPercent");
            if (p >= 1) {
                throw new IllegalArgumentException("lossPercent must be below 100, got " + percent);
            }
            this.lossProbability = p;
            return this;
        }

        /**
         * Gilbert–Elliott bursty loss with its four parameters (see {@link GilbertElliott}).
         *
         * @param goodToBadPercent p(good → bad) per datagram, % in (0, 100]
         * @param badToGoodPercent p(bad → good) per datagram, % in (0, 100]
         * @param lossInGoodPercent loss probability in the good state, %
         * @param lossInBadPercent loss probability in the bad state, %
         * @return this
         */
        public Builder gilbertElliott(double goodToBadPercent, double badToGoodPercent, double lossInGoodPercent,
                                      double lossInBadPercent) {
            this.burstLoss = new GilbertElliott.Params(
                    percentToProbability(goodToBadPercent, "goodToBadPercent"),
                    percentToProbability(badToGoodPercent, "badToGoodPercent"),
                    percentToProbability(lossInGoodPercent, "lossInGoodPercent"),
                    percentToProbability(lossInBadPercent, "lossInBadPercent"));
            return this;
        }

        /**
         * Bursty loss given as a mean loss rate and a mean burst length: the Gilbert model (every datagram in the
         * bad state lost, none in the good state) with {@code p(bad→good) = 1 / meanBurst} and
         * {@code p(good→bad) = rate · p(bad→good) / (1 - rate)}, so the stationary loss rate is {@code rate}.
         *
         * @param lossPercent mean loss rate, % in (0, 100)
         * @param meanBurstPackets mean number of consecutive datagrams lost, ≥ 1
         * @return this
         */
        public Builder burstLoss(double lossPercent, double meanBurstPackets) {
            this.burstLoss = GilbertElliott.Params.fromLossAndBurst(
                    percentToProbability(lossPercent, "burstLossPercent"), meanBurstPackets);
            return this;
        }

        /**
         * @param percent share of datagrams held back, % in [0, 100]
         * @param extraDelayMs how long a held-back datagram waits on top of its delay, ms (≥ 0); datagrams arriving
         *                     within that time overtake it
         * @return this
         */
        public Builder reorder(double percent, double extraDelayMs) {
            this.reorderProbability = percentToProbability(percent, "reorderPercent");
            this.reorderDelayNs = msToNs(extraDelayMs, "reorderDelayMs");
            return this;
        }

        /**
         * @param percent share of datagrams held back, % in [0, 100] (by {@link #reorderDelayMs}, default
         *                {@value Impairment#DEFAULT_REORDER_DELAY_MS} ms)
         * @return this
         */
        public Builder reorderPercent(double percent) {
            this.reorderProbability = percentToProbability(percent, "reorderPercent");
            return this;
        }

        /**
         * @param ms extra delay of a held-back datagram, ms (≥ 0)
         * @return this
         */
        public Builder reorderDelayMs(double ms) {
            this.reorderDelayNs = msToNs(ms, "reorderDelayMs");
            return this;
        }

        /**
         * @param percent share of datagrams sent twice, % in [0, 100]
         * @return this
         */
        public Builder duplicatePercent(double percent) {
            this.duplicateProbability = percentToProbability(percent, "duplicatePercent");
            return this;
        }

        /**
         * @param bitsPerSecond link rate in bits per second of UDP payload (≥ 0; 0 = unlimited)
         * @return this
         */
        public Builder rateBitsPerSecond(long bitsPerSecond) {
            if (bitsPerSecond < 0) {
                throw new IllegalArgumentException("rateBitsPerSecond must be ≥ 0, got " + bitsPerSecond);
            }
            this.rateBitsPerSecond = bitsPerSecond;
            return this;
        }

        /**
         * @param packets the rate limiter's drop-tail queue, packets (≥ 1; default {@value Impairment#DEFAULT_QUEUE_PACKETS})
         * @return this
         */
        public Builder queuePackets(int packets) {
            if (packets < 1) {
                throw new IllegalArgumentException("queuePackets must be ≥ 1, got " + packets);
            }
            this.queuePackets = packets;
            return this;
        }

        /**
         * @param bytes largest UDP payload forwarded, bytes (≥ 0; 0 = no cap); larger datagrams are dropped
         * @return this
         */
        public Builder mtuBytes(int bytes) {
            if (bytes < 0) {
                throw new IllegalArgumentException("mtuBytes must be ≥ 0, got " + bytes);
            }
            this.mtuBytes = bytes;
            return this;
        }

        /** @return the impairment */
        public Impairment build() {
            return new Impairment(this);
        }

        static long msToNs(double ms, String name) {
            if (!(ms >= 0) || Double.isInfinite(ms) || ms > 3_600_000) {
                throw new IllegalArgumentException(name + " must be in [0, 3600000] ms, got " + ms);
            }
            return Math.round(ms * 1e6);
        }

        static double percentToProbability(double percent, String name) {
            if (!(percent >= 0) || percent > 100) {
                throw new IllegalArgumentException(name + " must be in [0, 100] %, got " + percent);
            }
            return percent / 100.0;
        }
    }
}
