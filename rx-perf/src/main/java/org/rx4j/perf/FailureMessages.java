// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.perf;

import io.netty.util.NetUtil;
import java.io.IOException;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.net.PortUnreachableException;
import java.net.UnknownHostException;
import org.rx4j.perf.protocol.RxperfProtocol;
import org.rx4j.perf.protocol.RxperfProtocolException;
import org.rx4j.perf.transport.PerfCallException;

/** Turns a run-time failure into the one line rxperf prints after {@code rxperf: }. */
final class FailureMessages {
    private FailureMessages() {
    }

    /**
     * Describes a failure in one line.
     *
     * @param failure what went wrong
     * @return e.g. {@code call aborted with code -1 (RX_CALL_DEAD, or the rxperf server rejected the request)}
     */
    static String describe(Throwable failure) {
        String text;
        if (failure instanceof RxperfFailure || failure instanceof RxperfProtocolException) {
            text = failure.getMessage();
        } else if (failure instanceof PerfCallException call) {
            text = call.getMessage();
            boolean fromServer = call.kind() == PerfCallException.Kind.ABORTED_BY_PEER;
            if (call.code() == RxperfProtocol.ABORT_REJECTED && fromServer) {
                text = "call aborted with code -1 (the rxperf server rejected the request)";
            } else if (call.code() == RxperfProtocol.ABORT_REJECTED) {
                text = "call aborted with code -1 (RX_CALL_DEAD: server not answering, "
                        + "or the rxperf server rejected the request)";
            } else if (call.code() == RxperfProtocol.ABORT_PATTERN_MISMATCH) {
                text = "call aborted with code 251 (the server's --verify found a payload pattern mismatch)";
            }
        } else if (failure instanceof UnknownHostException) {
            text = "unknown host " + failure.getMessage();
        } else if (failure instanceof BindException) {
            text = "cannot bind: " + failure.getMessage();
        } else if (failure instanceof PortUnreachableException) {
            text = "server unreachable: " + failure.getMessage();
        } else if (failure instanceof InterruptedException) {
            text = "interrupted";
        } else if (failure instanceof IOException) {
            text = failure.getMessage() == null ? failure.getClass().getSimpleName() : failure.getMessage();
        } else {
            text = "internal error: " + failure + " (run with --debug for the stack trace)";
        }
        return oneLine(text == null ? failure.getClass().getSimpleName() : text);
    }

    /**
     * The failure for a call that ended because the server is not there, with its own message and exit code
     * (docs/rxperf.md "Exit codes"); other failures are returned as they are.
     *
     * @param failure a call's failure
     * @param server the server's address
     * @return an {@link RxperfFailure} for ICMP port unreachable (exit 4), no answer within the dead time (exit 5),
     *     ICMP host unreachable (exit 6) and no route (exit 7), else {@code failure}
     */
    static Exception forServer(Exception failure, InetSocketAddress server) {
        if (failure instanceof PerfCallException call) {
            String where = "UDP port " + server.getPort() + " of " + NetUtil.toAddressString(server.getAddress());
            switch (call.kind()) {
                case PORT_UNREACHABLE:
                    return new RxperfFailure("port unreachable (ICMP): nothing listens on " + where
                            + " (call aborted with code -1, RX_CALL_DEAD)", failure,
                            RxperfFailure.EXIT_PORT_UNREACHABLE);
                case HOST_UNREACHABLE:
                    return new RxperfFailure("host unreachable (ICMP): " + NetUtil.toAddressString(server.getAddress())
                            + " does not answer (on the local network: no answer to ARP or neighbour discovery;"
                            + " call aborted with code -1, RX_CALL_DEAD)", failure,
                            RxperfFailure.EXIT_HOST_UNREACHABLE);
                case NO_ROUTE:
                    return new RxperfFailure("no route to " + NetUtil.toAddressString(server.getAddress())
                            + " (network unreachable; call aborted with code -1, RX_CALL_DEAD)", failure,
                            RxperfFailure.EXIT_NO_ROUTE);
                case NO_ANSWER:
                    return new RxperfFailure("no answer from " + where + " within the dead time (call aborted with "
                            + "code -1, RX_CALL_DEAD): no host or no server there, or the packets are dropped",
                            failure, RxperfFailure.EXIT_NO_ANSWER);
                default:
                    break;
            }
        }
        return failure;
    }

    /**
     * Folds a message onto one line.
     *
     * @param text any text
     * @return the text with line breaks replaced by spaces
     */
    static String oneLine(String text) {
        return text.replaceAll("\\s*[\\r\\n]+\\s*", " ").strip();
    }
}
