// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.perf;

/**
 * A run-time failure with a message meant for the user (rxperf prints {@code rxperf: <message>} and exits 1),
 * e.g. no transport available, unknown host.
 */
public final class RxperfFailure extends RuntimeException {
    private static final long serialVersionUID = 1L;
    /** Exit code for a host name that does not resolve (docs/rxperf.md "Exit codes"). */
    static final int EXIT_UNKNOWN_HOST = 3;
    /** Exit code for a server port that answered with ICMP port unreachable. */
    static final int EXIT_PORT_UNREACHABLE = 4;
    /** Exit code for a server that did not answer within the dead time. */
    static final int EXIT_NO_ANSWER = 5;
    /** Exit code for a server host that answered with ICMP host unreachable (e.g. no answer to ARP). */
    static final int EXIT_HOST_UNREACHABLE = 6;
    /** Exit code for no route to the server (none in the routing table, or ICMP network unreachable). */
    static final int EXIT_NO_ROUTE = 7;

    /** The process's exit code, 1 unless a failure has its own. */
    private final int exitCode;

    /**
     * @param message one line, without the {@code rxperf: } prefix
     */
    public RxperfFailure(String message) {
        super(message);
        this.exitCode = 1;
    }

    /**
     * @param message one line, without the {@code rxperf: } prefix
     * @param cause the underlying exception (shown with {@code --debug})
     */
    public RxperfFailure(String message, Throwable cause) {
        this(message, cause, 1);
    }

    /**
     * @param message one line, without the {@code rxperf: } prefix
     * @param cause the underlying exception (shown with {@code --debug})
     * @param exitCode the process's exit code (docs/rxperf.md "Exit codes")
     */
    RxperfFailure(String message, Throwable cause, int exitCode) {
        super(message, cause);
        this.exitCode = exitCode;
    }

    /**
     * The exit code rxperf ends with.
     *
     * @return 1, or the code of a failure that has its own
     */
    public int exitCode() {
        return exitCode;
    }
}
