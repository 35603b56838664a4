// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.relay.core;

import java.util.Locale;
import java.util.SplittableRandom;

/**
 * Bursty loss: the Gilbert–Elliott two-state Markov model (E. N. Gilbert, "Capacity of a burst-noise channel",
 * 1960; E. O. Elliott, 1963). The channel is in a good or a bad state; per datagram it first moves (good → bad with
 * {@code p}, bad → good with {@code r}), then loses the datagram with the loss probability of the state it is in.
 * With loss 0 in good and 1 in bad (the Gilbert model) the mean burst is {@code 1/r} datagrams and the mean loss
 * rate {@code p/(p+r)}. State is per direction; the random source is the caller's (seeded).
 */
public final class GilbertElliott {
    private final Params params;
    private boolean bad;

    /**
     * Parameters, all probabilities in [0, 1].
     *
     * @param goodToBad p: per datagram, probability of moving good → bad
     * @param badToGood r: per datagram, probability of moving bad → good
     * @param lossInGood loss probability while good (1 - k in Elliott's notation)
     * @param lossInBad loss probability while bad (1 - h)
     */
    public record Params(double goodToBad, double badToGood, double lossInGood, double lossInBad) {
        /**
         * @param goodToBad p(good → bad) per datagram, probability
         * @param badToGood p(bad → good) per datagram, probability (> 0)
         * @param lossInGood loss probability while good
         * @param lossInBad loss probability while bad
         * @throws IllegalArgumentException if a value is outside [0, 1] or {@code badToGood} is 0 (stuck in bad)
         */
        public Params {
            check(goodToBad, "goodToBad");
            check(badToGood, "badToGood");
            check(lossInGood, "lossInGood");
            check(lossInBad, "lossInBad");
            if (badToGood == 0) {
                throw new IllegalArgumentException("badToGood must be > 0 (else the channel never leaves bad)");
            }
        }

        /**
         * The Gilbert model for a mean loss rate and mean burst length (see the class comment).
         *
         * @param lossRate mean loss rate, probability in (0, 1)
         * @param meanBurstPackets mean number of consecutive datagrams lost, ≥ 1
         * @return the parameters
         * @throws IllegalArgumentException if out of range
         */
        public static Params fromLossAndBurst(double lossRate, double meanBurstPackets) {
            if (!(lossRate > 0) || lossRate >= 1) {
                throw new IllegalArgumentException("burst loss rate must be in (0, 100) %, got " + lossRate * 100);
            }
            if (!(meanBurstPackets >= 1) || Double.isInfinite(meanBurstPackets)) {
                throw new IllegalArgumentException("mean burst length must be ≥ 1 packet, got " + meanBurstPackets);
            }
            double r = 1.0 / meanBurstPackets;
            double p = lossRate * r / (1 - lossRate);
            if (p > 1) {
                throw new IllegalArgumentException("burst loss " + lossRate * 100 + " % with mean burst "
                        + meanBurstPackets + " needs p(good→bad) > 1; use a longer burst");
            }
            return new Params(p, r, 0, 1);
        }

        /** @return the long-run loss rate, probability: {@code (r·lossGood + p·lossBad) / (p + r)} */
        public double meanLossRate() {
            return (badToGood * lossInGood + goodToBad * lossInBad) / (goodToBad + badToGood);
        }

        private static void check(double v, String name) {
            if (!(v >= 0) || v > 1) {
                throw new IllegalArgumentException(name + " must be a probability in [0, 1], got " + v);
            }
        }

        /** @return e.g. {@code p 0.25 %, r 20 %, loss good 0 % bad 100 % (mean 1.23 %)} */
        @Override
        public String toString() {
            return String.format(Locale.ROOT, "p %s %%, r %s %%, loss good %s %% bad %s %% (mean %s %%)",
                    Impairment.pct(goodToBad), Impairment.pct(badToGood), Impairment.pct(lossInGood),
                    Impairment.pct(lossInBad), Impairment.pct(meanLossRate()));
        }
    }

    /**
     * A model starting in the good state.
     *
     * @param params the parameters
     */
    public GilbertElliott(Params params) {
        this.params = params;
    }

    /**
     * Advances one datagram.
     *
     * @param random the seeded source (two draws at most)
     * @return true if this datagram is lost
     */
    public boolean lose(SplittableRandom random) {
        if (bad) {
            if (random.nextDouble() < params.badToGood()) {
                bad = false;
            }
        } else if (random.nextDouble() < params.goodToBad()) {
            bad = true;
        }
        double loss = bad ? params.lossInBad() : params.lossInGood();
        return loss >= 1 || (loss > 0 && random.nextDouble() < loss);
    }

    /** @return true while in the bad state */
    public boolean isBad() {
        return bad;
    }
}
