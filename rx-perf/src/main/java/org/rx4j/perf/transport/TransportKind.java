package org.rx4j.perf.transport;

import java.util.Locale;

/**
 * The socket implementation under the Rx endpoint ({@code --transport}): Netty NIO, native epoll (Linux), or auto
 * (epoll where Netty's native library loads, else NIO; the default).
 */
public enum TransportKind {
    /** Java NIO datagram channels; works everywhere. */
    NIO,
    /** Netty's native epoll transport (Linux only; allows recvmmsg/GSO-style batching). */
    EPOLL,
    /** EPOLL where it loads, else NIO (the default: docs/robustness.md "Flood"). */
    AUTO;

    /**
     * The word used on the command line.
     *
     * @return {@code nio}, {@code epoll} or {@code auto}
     */
    public String flagValue() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * Parses a command-line word, case-insensitively.
     *
     * @param word {@code nio}, {@code epoll} or {@code auto}
     * @return the kind
     * @throws IllegalArgumentException naming the accepted words if {@code word} is neither
     */
    public static TransportKind fromFlag(String word) {
        for (TransportKind kind : values()) {
            if (kind.flagValue().equalsIgnoreCase(word)) {
                return kind;
            }
        }
        throw new IllegalArgumentException("'" + word + "' is not one of nio, epoll, auto");
    }
}
