package org.rx4j.perf.transport;

import java.util.Locale;

/** The socket implementation under the Rx endpoint ({@code --transport}): Netty NIO or native epoll (Linux). */
public enum TransportKind {
    /** Java NIO datagram channels; works everywhere. */
    NIO,
    /** Netty's native epoll transport (Linux only; allows recvmmsg/GSO-style batching). */
    EPOLL;

    /**
     * The word used on the command line.
     *
     * @return {@code nio} or {@code epoll}
     */
    public String flagValue() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * Parses a command-line word, case-insensitively.
     *
     * @param word {@code nio} or {@code epoll}
     * @return the kind
     * @throws IllegalArgumentException naming the accepted words if {@code word} is neither
     */
    public static TransportKind fromFlag(String word) {
        for (TransportKind kind : values()) {
            if (kind.flagValue().equalsIgnoreCase(word)) {
                return kind;
            }
        }
        throw new IllegalArgumentException("'" + word + "' is not one of nio, epoll");
    }
}
