// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine.cc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class JumboSizerTest {
    @Test
    void startsAtOneAndDoesNotGrowBeforeAMaxIsSet() {
        JumboSizer sizer = new JumboSizer();

        assertEquals(1, sizer.size());
        assertEquals(1, sizer.max());
        sizer.onCleanAck(100);
        assertEquals(1, sizer.size());
    }

    @Test
    void growsByOneOnceMoreThanThresholdPacketsAreAckedClean() {
        JumboSizer sizer = new JumboSizer(4);
        sizer.setMax(6);

        sizer.onCleanAck(2);
        sizer.onCleanAck(2);
        assertEquals(1, sizer.size(), "exactly the threshold is not enough");
        sizer.onCleanAck(1);
        assertEquals(2, sizer.size());
        // the count restarted at the growth
        sizer.onCleanAck(4);
        assertEquals(2, sizer.size());
        sizer.onCleanAck(1);
        assertEquals(3, sizer.size());
    }

    @Test
    void growsAtMostOneStepPerAck() {
        JumboSizer sizer = new JumboSizer(4);
        sizer.setMax(6);

        sizer.onCleanAck(Integer.MAX_VALUE);
        assertEquals(2, sizer.size());
        sizer.onCleanAck(100);
        assertEquals(3, sizer.size());
    }

    @Test
    void neverGrowsBeyondMax() {
        JumboSizer sizer = new JumboSizer(0);
        sizer.setMax(3);

        for (int i = 0; i < 10; i++) {
            sizer.onCleanAck(1);
        }

        assertEquals(3, sizer.size());
    }

    @Test
    void aNackRestartsTheCleanCountButKeepsTheSize() {
        JumboSizer sizer = new JumboSizer(4);
        sizer.setMax(6);
        sizer.onCleanAck(5);
        assertEquals(2, sizer.size());

        sizer.onCleanAck(3);
        sizer.onNack();
        sizer.onCleanAck(2);
        assertEquals(2, sizer.size(), "3 + 2 would have passed the threshold without the NACK");
        sizer.onCleanAck(3);
        assertEquals(3, sizer.size());
    }

    @Test
    void aTimeoutDropsTheSizeToOneAndRestartsTheCount() {
        JumboSizer sizer = new JumboSizer(4);
        sizer.setMax(6);
        sizer.onCleanAck(5);
        sizer.onCleanAck(5);
        assertEquals(3, sizer.size());
        sizer.onCleanAck(3);

        sizer.onTimeout();

        assertEquals(1, sizer.size());
        sizer.onCleanAck(2);
        assertEquals(1, sizer.size(), "3 + 2 would have passed the threshold without the timeout");
        sizer.onCleanAck(3);
        assertEquals(2, sizer.size());
    }

    @Test
    void setMaxClampsTheSizeAndRaisingItDoesNotGrowIt() {
        JumboSizer sizer = new JumboSizer(0);
        sizer.setMax(6);
        for (int i = 0; i < 5; i++) {
            sizer.onCleanAck(1);
        }
        assertEquals(6, sizer.size());

        sizer.setMax(2);
        assertEquals(2, sizer.size());
        sizer.setMax(10);
        assertEquals(2, sizer.size());
        sizer.onCleanAck(1);
        assertEquals(3, sizer.size());
    }

    @Test
    void rejectsInvalidArguments() {
        assertThrows(IllegalArgumentException.class, () -> new JumboSizer(-1));
        JumboSizer sizer = new JumboSizer();
        assertThrows(IllegalArgumentException.class, () -> sizer.setMax(0));
        assertThrows(IllegalArgumentException.class, () -> sizer.onCleanAck(0));
        assertEquals(1, sizer.max());
    }
}
