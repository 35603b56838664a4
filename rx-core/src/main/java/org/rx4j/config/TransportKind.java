package org.rx4j.config;

/**
 * Which socket implementation carries an endpoint's UDP socket: Java NIO (default, everywhere) or native epoll
 * (Linux x86_64, when Netty's native library loads). A plain choice: the transport layer maps it to its Netty classes,
 * and {@code RxEndpoint.unavailabilityReason(TransportKind)} tells whether it can run here.
 */
public enum TransportKind {
    /** Java NIO datagram channel. */
    NIO,
    /** Netty's native epoll datagram channel (Linux x86_64; recvmmsg batching). */
    EPOLL;

    /**
     * Parses a name as given on the command line.
     *
     * @param name "nio" or "epoll", any case
     * @return the kind
     * @throws IllegalArgumentException for another name
     */
    public static TransportKind parse(String name) {
        return switch (name.toLowerCase(java.util.Locale.ROOT)) {
            case "nio" -> NIO;
            case "epoll" -> EPOLL;
            default -> throw new IllegalArgumentException("unknown transport '" + name + "' (nio or epoll)");
        };
    }
}
