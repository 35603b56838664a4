// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.perf.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.StringReader;
import org.junit.jupiter.api.Test;
import org.rx4j.perf.protocol.FileWords;
import org.rx4j.perf.protocol.RxperfCommand;
import org.rx4j.perf.protocol.RxperfRequest;

/** The result line, byte for byte as OpenAFS 1.8 rxperf prints it (rx-wire-facts.md §10). */
class ResultLineTest {
    private static final int CHUNK = 524288;

    @Test
    void sendLineMatchesOpenAfsExample() {
        RxperfRequest send = new RxperfRequest(RxperfCommand.SEND, 1048576, 3, 30, CHUNK, CHUNK, null);
        String stamp = ResultLine.stamp(send, 1, 100);
        // 100 × 1 MiB in 1.397 s = 600.47 Mbit/s
        assertEquals("SEND: threads\t1, times\t100, bytes\t1048576:\t    1397 msec\t[600.5 Mbit/s]",
                ResultLine.format(stamp, ResultLine.totalBytes(send, 1, 100), 1_397_000));
    }

    @Test
    void sendLineOfTheFactSheetCapture() {
        RxperfRequest send = new RxperfRequest(RxperfCommand.SEND, 100000, 3, 30, CHUNK, CHUNK, null);
        // 300000 bytes in 12.079 ms = 198.69 Mbit/s; msec truncated
        assertEquals("SEND: threads\t1, times\t3, bytes\t100000:\t      12 msec\t[198.7 Mbit/s]",
                ResultLine.format(ResultLine.stamp(send, 1, 3), ResultLine.totalBytes(send, 1, 3), 12_079));
    }

    @Test
    void recvLineInGigabits() {
        RxperfRequest recv = new RxperfRequest(RxperfCommand.RECV, 1048576, 3, 30, CHUNK, CHUNK, null);
        // 4 threads × 50 × 1 MiB = 209715200 bytes in 500 ms = 3.355 Gbit/s
        assertEquals("RECV: threads\t4, times\t50, bytes\t1048576:\t     500 msec\t[3.355 Gbit/s]",
                ResultLine.format(ResultLine.stamp(recv, 4, 50), ResultLine.totalBytes(recv, 4, 50), 500_000));
    }

    @Test
    void rpcLineCountsWriteAndReadBytesInKilobits() {
        RxperfRequest rpc = new RxperfRequest(RxperfCommand.RPC, 1048576, 3, 30, CHUNK, CHUNK, null);
        // 1 × 100 × 33 bytes = 3300 bytes in 2.5 s = 10.56 kbit/s
        assertEquals(3300, ResultLine.totalBytes(rpc, 1, 100));
        assertEquals("RPC: threads\t1, times\t100, write bytes\t3, read bytes\t30:\t    2500 msec\t[10.56 kbit/s]",
                ResultLine.format(ResultLine.stamp(rpc, 1, 100), 3300, 2_500_000));
    }

    @Test
    void fileLineNamesTheFileAndCountsDashB() throws IOException {
        FileWords words = FileWords.parse("words.txt", new BufferedReader(new StringReader("10\n\n20\n")));
        RxperfRequest file = new RxperfRequest(RxperfCommand.FILE, 1048576, 3, 30, CHUNK, CHUNK, words);
        // OpenAFS rates FILE with threads × times × -b, not the file's 120 bytes
        assertEquals(1048576L * 7, ResultLine.totalBytes(file, 1, 7));
        assertEquals("FILE words.txt: threads\t1, times\t7, bytes\t1048576:\t   12345 msec\t[4.756 Mbit/s]",
                ResultLine.format(ResultLine.stamp(file, 1, 7), ResultLine.totalBytes(file, 1, 7), 12_345_678));
    }

    @Test
    void unitThresholdsAreStrictlyGreater() {
        assertEquals("1000 kbit/s", RateFormat.format(1000.0));
        assertEquals("1 Mbit/s", RateFormat.format(1000.0001));
        assertEquals("1000 Mbit/s", RateFormat.format(1_000_000.0));
        assertEquals("1 Gbit/s", RateFormat.format(1_000_000.5));
        assertEquals("inf Gbit/s", RateFormat.format(RateFormat.kbitPerSecond(1, 0)));
    }
}
