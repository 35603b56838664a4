// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.perf;

import java.nio.file.Path;
import org.rx4j.perf.client.ClientDriver;
import org.rx4j.perf.client.RunSchedule;
import org.rx4j.perf.protocol.FileWords;
import org.rx4j.perf.protocol.RxperfCommand;
import org.rx4j.perf.protocol.RxperfProtocol;
import org.rx4j.perf.protocol.RxperfRequest;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Option;
import picocli.CommandLine.TypeConversionException;

/**
 * OpenAFS rxperf's client flags with their meanings and defaults (rx-wire-facts.md §10, rxperf.c), plus rx4j's
 * long-only extras for output and checking.
 */
public final class ClientFlags {
    /** Largest {@code --time} and {@code --omit}: one day, s (as {@code --interval}). */
    static final int MAX_SECONDS = 86400;

    // not picocli-required: picocli would report a missing -c before an unknown flag; validate() checks it
    @Option(names = "-c", paramLabel = "send|recv|rpc|file", converter = CommandConverter.class,
            description = "Command: send, recv, rpc or file (required).")
    RxperfCommand command;

    @Option(names = "-b", paramLabel = "BYTES", converter = CIntConverter.class, defaultValue = "1048576",
            description = "Bytes per call for send and recv (file: only used for the rate, as OpenAFS). "
                    + "Default: ${DEFAULT-VALUE}.")
    int bytes;

    @Option(names = "-T", paramLabel = "TIMES", converter = CIntConverter.class, defaultValue = "100",
            description = "Calls per thread, >= 1. Default: ${DEFAULT-VALUE}.")
    int times;

    @Option(names = "-t", paramLabel = "THREADS", converter = CIntConverter.class, defaultValue = "1",
            description = "Threads, 1..128; a new connection every 4 threads. Default: ${DEFAULT-VALUE}.")
    int threads;

    @Option(names = "-S", paramLabel = "BYTES", converter = CIntConverter.class, defaultValue = "3",
            description = "rpc: bytes the client sends per call. Default: ${DEFAULT-VALUE}.")
    int sendBytes;

    @Option(names = "-R", paramLabel = "BYTES", converter = CIntConverter.class, defaultValue = "30",
            description = "rpc: bytes the client receives per call. Default: ${DEFAULT-VALUE}.")
    int receiveBytes;

    @Option(names = "-f", paramLabel = "FILE",
            description = "file: word list, one number per line (blank = 0); word w moves 4*w bytes, 0 toggles "
                    + "direction.")
    Path file;

    @Option(names = "-s", paramLabel = "HOST", defaultValue = "127.0.0.1",
            description = "Server host name or address (IPv6 works between rx4j peers). Default: ${DEFAULT-VALUE}.")
    String host;

    @Option(names = "-p", paramLabel = "PORT", converter = CIntConverter.class, defaultValue = "7009",
            description = "Server UDP port, 1..65535. Default: ${DEFAULT-VALUE} (loopback: 0..65535, default ephemeral).")
    int port;

    @Option(names = "-r", paramLabel = "BYTES", converter = CIntConverter.class, defaultValue = "524288",
            description = "Read chunk size, 1..524288. Default: ${DEFAULT-VALUE}.")
    int readSize;

    @Option(names = "-w", paramLabel = "BYTES", converter = CIntConverter.class, defaultValue = "524288",
            description = "Write chunk size, 1..524288. Default: ${DEFAULT-VALUE}.")
    int writeSize;

    @Option(names = "-D", description = "Print Rx statistics after the result (not with -N).")
    boolean dumpStats;

    @Option(names = "--interval", paramLabel = "SECONDS",
            description = "Print a progress line (bytes moved, rate) on stderr every SECONDS during the run.")
    Double interval;

    @Option(names = "--time", paramLabel = "SECONDS",
            description = "Run calls for SECONDS instead of -T times (iperf3's -t); the result line's times and "
                    + "bytes are the calls counted.")
    Double time;

    @Option(names = "--omit", paramLabel = "SECONDS",
            description = "With --time: leave the first SECONDS out of every figure (warm-up; iperf3's -O). "
                    + "Default: 0.")
    Double omit;

    @Option(names = "--json", description = "Print one JSON object with all figures instead of the text lines.")
    boolean json;

    @Option(names = "--verify", description = "Check received payload against the k mod 251 pattern; "
            + "a mismatch fails the run.")
    boolean verify;

    @Option(names = "--threaded", description = "rpc, send, recv: run the calls on -t client threads with the call's "
            + "streams instead of -t call chains on the event loop (the way file and calls over 1 MiB always run).")
    boolean threaded;

    /**
     * Checks ranges and combinations, as OpenAFS where it checks (-t max 128, -r/-w max 524288, not -N with -D,
     * file with one thread only) and rx4j's ranges elsewhere.
     *
     * @param check the checker of the command
     * @param endpoint the endpoint flags of the same command (for -N)
     * @param checkPort whether to check {@code -p} (loopback allows 0 = ephemeral)
     * @throws picocli.CommandLine.ParameterException naming the first bad flag
     */
    void validate(FlagCheck check, EndpointFlags endpoint, boolean checkPort) {
        if (command == null) {
            throw check.usage("Missing required option: '-c=send|recv|rpc|file'");
        }
        if (host == null || host.isBlank()) {
            throw check.usage("Invalid value for option '-s': the server host is empty");
        }
        check.range("-b", bytes, 0, Integer.MAX_VALUE);
        check.range("-T", times, 1, Integer.MAX_VALUE);
        check.range("-t", threads, 1, ClientDriver.MAX_THREADS);
        check.range("-S", sendBytes, 0, Integer.MAX_VALUE);
        check.range("-R", receiveBytes, 0, Integer.MAX_VALUE);
        if (checkPort) {
            check.range("-p", port, 1, 65535);
        }
        check.range("-r", readSize, 1, RxperfProtocol.MAX_CHUNK);
        check.range("-w", writeSize, 1, RxperfProtocol.MAX_CHUNK);
        if (interval != null && !(interval > 0 && interval <= 86400)) {
            throw check.invalid("--interval", interval + " is not in (0, 86400] seconds");
        }
        if (time != null && !(time > 0 && time <= MAX_SECONDS)) {
            throw check.invalid("--time", time + " is not in (0, " + MAX_SECONDS + "] seconds");
        }
        if (omit != null) {
            if (!(omit >= 0 && omit < MAX_SECONDS)) {
                throw check.invalid("--omit", omit + " is not in [0, " + MAX_SECONDS + ") seconds");
            }
            if (time == null) {
                throw check.usage("Option --omit needs --time (it leaves the first seconds of a timed run out)");
            }
            if (omit >= time) {
                throw check.invalid("--omit", omit + " is not less than --time " + time);
            }
        }
        if (time != null && check.matched("-T")) {
            throw check.usage("Options -T and --time cannot be used together (a run is counted or timed)");
        }
        if (endpoint.noStats && dumpStats) {
            throw check.usage("Options -N and -D cannot be used together (-D prints the statistics -N turns off)");
        }
        if (command == RxperfCommand.FILE) {
            if (file == null) {
                throw check.usage("Missing option -f: -c file needs a word list file");
            }
            if (threads > 1) {
                throw check.usage("Options -c file and -t " + threads + " cannot be used together "
                        + "(file runs one thread, as OpenAFS)");
            }
        }
    }

    /**
     * How long the run goes: {@code -T} calls per thread, or {@code --time} seconds less {@code --omit}.
     *
     * @return the schedule (flags already validated)
     */
    RunSchedule toSchedule() {
        if (time == null) {
            return RunSchedule.calls(times);
        }
        return RunSchedule.timed(Math.round(time * 1e9), omit == null ? 0 : Math.round(omit * 1e9));
    }

    /**
     * {@code --omit} as given, 0 when absent.
     *
     * @return seconds
     */
    double omitSeconds() {
        return omit == null ? 0.0 : omit;
    }

    /**
     * The request every call makes; reads the FILE word list.
     *
     * @param check the checker, for a bad word file
     * @return the request
     * @throws picocli.CommandLine.ParameterException naming {@code -f}, the file and the line for a bad word file
     */
    RxperfRequest toRequest(FlagCheck check) {
        FileWords words = null;
        if (command == RxperfCommand.FILE) {
            try {
                words = FileWords.read(file);
            } catch (IllegalArgumentException e) {
                throw check.invalid("-f", e.getMessage());
            }
        }
        return new RxperfRequest(command, bytes, sendBytes, receiveBytes, readSize, writeSize, words);
    }

    /** Converts {@code -c} words, case-insensitively as OpenAFS. */
    static final class CommandConverter implements ITypeConverter<RxperfCommand> {
        @Override
        public RxperfCommand convert(String value) {
            try {
                return RxperfCommand.fromFlag(value);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(e.getMessage());
            }
        }
    }
}
