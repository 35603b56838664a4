package org.rx4j.transport;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollDatagramChannel;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.DatagramChannel;
import io.netty.channel.socket.nio.NioDatagramChannel;

/**
 * Which Netty transport carries the UDP socket: Java NIO (default, everywhere) or native epoll (Linux,
 * when the native library loads).
 */
public enum TransportKind {
    /** Java NIO datagram channel. */
    NIO,
    /** Netty's native epoll datagram channel (Linux x86_64). */
    EPOLL;

    /**
     * @return true when this transport can run here (epoll: the native library loaded)
     */
    public boolean isAvailable() {
        return this == NIO || Epoll.isAvailable();
    }

    /**
     * @return why this transport cannot run here, or null when it can
     */
    public String unavailabilityReason() {
        if (isAvailable()) {
            return null;
        }
        Throwable cause = Epoll.unavailabilityCause();
        return "epoll transport unavailable: " + (cause == null ? "unknown reason" : cause.getMessage());
    }

    /**
     * Creates a one-thread event loop group of this kind.
     *
     * @param threadName base name of the loop thread
     * @return the group (the caller shuts it down)
     * @throws IllegalStateException if the transport is not available
     */
    public EventLoopGroup newEventLoopGroup(String threadName) {
        if (!isAvailable()) {
            throw new IllegalStateException(unavailabilityReason());
        }
        IoHandlerFactory factory = this == EPOLL ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
        return new MultiThreadIoEventLoopGroup(1, new io.netty.util.concurrent.DefaultThreadFactory(threadName, true),
                factory);
    }

    /** @return the datagram channel class of this transport */
    public Class<? extends DatagramChannel> channelClass() {
        return this == EPOLL ? EpollDatagramChannel.class : NioDatagramChannel.class;
    }

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
