// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.relay.cli;

import java.util.Locale;
import org.rx4j.relay.core.Impairment;

/**
 * One impairment flag of the relay CLI. Each exists three times: {@code --NAME} (both directions),
 * {@code --up-NAME} (client → target) and {@code --down-NAME} (target → client); a per-direction flag overrides
 * the both-direction one. Values are parsed here; a bad one raises {@link IllegalArgumentException} whose message
 * the CLI prints after the flag's name.
 */
enum ImpairmentOption {
    DELAY("delay", "MS", "one-way delay, ms (fractions allowed, e.g. 5 or 0.25)") {
        @Override
        void apply(Impairment.Builder b, String v) {
            b.delayMs(number(v));
        }
    },
    JITTER("jitter", "MS", "jitter, ms: each delay drawn uniformly from [delay-jitter, delay+jitter]; "
            + "jitter above the gap between datagrams reorders them") {
        @Override
        void apply(Impairment.Builder b, String v) {
            b.jitterMs(number(v));
        }
    },
    LOSS("loss", "PCT", "random loss, percent (0.5 = 0.5 %%)") {
        @Override
        void apply(Impairment.Builder b, String v) {
            b.lossPercent(number(v));
        }
    },
    BURST_LOSS("burst-loss", "PCT:LEN", "bursty loss (Gilbert model): mean loss percent and mean burst length in "
            + "datagrams, e.g. 1:5") {
        @Override
        void apply(Impairment.Builder b, String v) {
            String[] parts = v.split(":", -1);
            if (parts.length != 2) {
                throw new IllegalArgumentException("expected PCT:LEN (e.g. 1:5), got '" + v + "'");
            }
            b.burstLoss(number(parts[0]), number(parts[1]));
        }
    },
    GILBERT_ELLIOTT("gilbert-elliott", "P,R[,LG,LB]", "bursty loss (Gilbert–Elliott): percent p(good->bad), "
            + "p(bad->good), loss in good (default 0), loss in bad (default 100), e.g. 0.25,20,0,100") {
        @Override
        void apply(Impairment.Builder b, String v) {
            String[] parts = v.split(",", -1);
            if (parts.length != 2 && parts.length != 4) {
                throw new IllegalArgumentException("expected P,R or P,R,LG,LB (percent), got '" + v + "'");
            }
            double lossGood = parts.length == 4 ? number(parts[2]) : 0;
            double lossBad = parts.length == 4 ? number(parts[3]) : 100;
            b.gilbertElliott(number(parts[0]), number(parts[1]), lossGood, lossBad);
        }
    },
    REORDER("reorder", "PCT", "percent of datagrams held back by --reorder-delay so later ones overtake them") {
        @Override
        void apply(Impairment.Builder b, String v) {
            b.reorderPercent(number(v));
        }
    },
    REORDER_DELAY("reorder-delay", "MS", "extra delay of a held-back datagram, ms (default 1)") {
        @Override
        void apply(Impairment.Builder b, String v) {
            b.reorderDelayMs(number(v));
        }
    },
    DUPLICATE("duplicate", "PCT", "percent of datagrams sent twice") {
        @Override
        void apply(Impairment.Builder b, String v) {
            b.duplicatePercent(number(v));
        }
    },
    RATE("rate", "BITS", "rate limit, bits/s of UDP payload; k, M, G suffixes are powers of 1000 (e.g. 100M); "
            + "0 = none") {
        @Override
        void apply(Impairment.Builder b, String v) {
            b.rateBitsPerSecond(bits(v));
        }
    },
    QUEUE("queue", "N", "drop-tail queue of the rate limiter, datagrams (default 1000)") {
        @Override
        void apply(Impairment.Builder b, String v) {
            b.queuePackets(integer(v));
        }
    },
    MTU("mtu", "BYTES", "drop datagrams whose UDP payload is above BYTES; 0 = no cap") {
        @Override
        void apply(Impairment.Builder b, String v) {
            b.mtuBytes(integer(v));
        }
    };

    private final String name;
    private final String label;
    private final String description;

    ImpairmentOption(String name, String label, String description) {
        this.name = name;
        this.label = label;
        this.description = description;
    }

    /**
     * @param b the builder to set
     * @param value the flag's value as typed
     * @throws IllegalArgumentException if the value is malformed or out of range
     */
    abstract void apply(Impairment.Builder b, String value);

    /**
     * @param prefix "", "up-" or "down-"
     * @return the flag, e.g. {@code --up-delay}
     */
    String flag(String prefix) {
        return "--" + prefix + name;
    }

    String label() {
        return label;
    }

    String description() {
        return description;
    }

    static double number(String v) {
        try {
            double d = Double.parseDouble(v.trim());
            if (Double.isNaN(d) || Double.isInfinite(d)) {
                throw new NumberFormatException();
            }
            return d;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + v + "' is not a number");
        }
    }

    static int integer(String v) {
        try {
            return Integer.parseInt(v.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + v + "' is not an integer");
        }
    }

    /**
     * @param v e.g. {@code 100M}, {@code 2.5G}, {@code 64000}
     * @return bits per second
     */
    static long bits(String v) {
        String s = v.trim();
        double scale = 1;
        if (!s.isEmpty()) {
            switch (Character.toLowerCase(s.charAt(s.length() - 1))) {
                case 'k' -> scale = 1e3;
                case 'm' -> scale = 1e6;
                case 'g' -> scale = 1e9;
                default -> scale = 1;
            }
            if (scale != 1) {
                s = s.substring(0, s.length() - 1);
            }
        }
        double d;
        try {
            d = Double.parseDouble(s);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + v + "' is not a rate (e.g. 100M, 1.5G, 64000)");
        }
        double bits = d * scale;
        if (!(bits >= 0) || bits > 1e13) {
            throw new IllegalArgumentException("rate must be in [0, 10T] bit/s, got '" + v + "'");
        }
        return Math.round(bits);
    }

    @Override
    public String toString() {
        return name.toLowerCase(Locale.ROOT);
    }
}
