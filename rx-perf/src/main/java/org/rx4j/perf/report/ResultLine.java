// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.perf.report;

import org.rx4j.perf.protocol.RxperfRequest;

/**
 * The one-line result of an rxperf client run, byte for byte as OpenAFS 1.8 prints it (rx-wire-facts.md §10):
 * {@code <STAMP>:\t%8llu msec\t[%.4g <unit>]}, where STAMP is
 * {@code SEND: threads\t%d, times\t%d, bytes\t%d} (RECV likewise),
 * {@code RPC: threads\t%d, times\t%d, write bytes\t%d, read bytes\t%d}, or
 * {@code FILE <name>: threads\t%d, times\t%d, bytes\t%d}.
 */
public final class ResultLine {
    private ResultLine() {
    }

    /**
     * The STAMP part.
     *
     * @param request the run's request (command, sizes, FILE name)
     * @param threads {@code -t}
     * @param times {@code -T}
     * @return the stamp, without the trailing colon
     */
    public static String stamp(RxperfRequest request, int threads, int times) {
        return switch (request.command()) {
            case SEND -> "SEND: threads\t" + threads + ", times\t" + times + ", bytes\t" + request.bytes();
            case RECV -> "RECV: threads\t" + threads + ", times\t" + times + ", bytes\t" + request.bytes();
            case RPC -> "RPC: threads\t" + threads + ", times\t" + times + ", write bytes\t" + request.sendBytes()
                    + ", read bytes\t" + request.receiveBytes();
            case FILE -> "FILE " + request.fileWords().name() + ": threads\t" + threads + ", times\t" + times
                    + ", bytes\t" + request.bytes();
        };
    }

    /**
     * The byte total the rate uses: threads × times × (S + R) for RPC, threads × times × {@code -b} otherwise
     * (FILE too: OpenAFS counts {@code -b}, not the file's transfers).
     *
     * @param request the run's request
     * @param threads {@code -t}
     * @param times {@code -T}
     * @return bytes
     */
    public static long totalBytes(RxperfRequest request, int threads, int times) {
        return totalBytesOfCalls(request, (long) threads * times);
    }

    /**
     * The same byte total for a number of calls (a timed run counts calls, not threads × times).
     *
     * @param request the run's request
     * @param calls calls counted
     * @return bytes: calls × (S + R) for RPC, calls × {@code -b} otherwise
     */
    public static long totalBytesOfCalls(RxperfRequest request, long calls) {
        long perCall = switch (request.command()) {
            case RPC -> (long) request.sendBytes() + request.receiveBytes();
            case SEND, RECV, FILE -> request.bytes();
        };
        return calls * perCall;
    }

    /**
     * The full line, without a line terminator.
     *
     * @param stamp the STAMP part
     * @param totalBytes bytes for the rate
     * @param elapsedMicros elapsed µs; msec printed = elapsedMicros / 1000, truncated
     * @return e.g. {@code SEND: threads\t1, times\t100, bytes\t1048576:\t    1397 msec\t[600.5 Mbit/s]}
     */
    public static String format(String stamp, long totalBytes, long elapsedMicros) {
        String msec = String.format(java.util.Locale.ROOT, "%8d", elapsedMicros / 1000);
        return stamp + ":\t" + msec + " msec\t[" + RateFormat.format(RateFormat.kbitPerSecond(totalBytes,
                elapsedMicros)) + "]";
    }
}
