package org.rx4j.transport;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollDatagramChannel;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.DatagramChannel;
import io.netty.channel.socket.nio.NioDatagramChannel;
import org.rx4j.config.TransportKind;

/** Maps the user's {@link TransportKind} choice onto Netty's event loop and datagram channel classes. */
public final class NettyTransports {
    private NettyTransports() {
    }

    /**
     * @param kind the transport
     * @return true when it can run here (epoll: the native library loaded)
     */
    public static boolean isAvailable(TransportKind kind) {
        return kind != TransportKind.EPOLL || Epoll.isAvailable();
    }

    /**
     * @param kind the transport asked for
     * @return the transport that runs: {@link TransportKind#AUTO} becomes EPOLL where Netty's native epoll loads,
     *     else NIO; the others are themselves
     */
    public static TransportKind resolve(TransportKind kind) {
        if (kind != TransportKind.AUTO) {
            return kind;
        }
        return Epoll.isAvailable() ? TransportKind.EPOLL : TransportKind.NIO;
    }

    /**
     * @param kind the transport
     * @return why it cannot run here, or null when it can
     */
    public static String unavailabilityReason(TransportKind kind) {
        if (isAvailable(kind)) {
            return null;
        }
        Throwable cause = Epoll.unavailabilityCause();
        return "epoll transport unavailable: " + (cause == null ? "unknown reason" : cause.getMessage());
    }

    /**
     * Creates a one-thread event loop group of this kind.
     *
     * @param kind the transport, resolved (see {@link #resolve}): NIO or EPOLL
     * @param threadName base name of the loop thread
     * @return the group (the caller shuts it down)
     * @throws IllegalStateException if the transport is not available
     */
    static EventLoopGroup newEventLoopGroup(TransportKind kind, String threadName) {
        if (!isAvailable(kind)) {
            throw new IllegalStateException(unavailabilityReason(kind));
        }
        IoHandlerFactory factory = kind == TransportKind.EPOLL ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
        return new MultiThreadIoEventLoopGroup(1, new io.netty.util.concurrent.DefaultThreadFactory(threadName, true),
                factory);
    }

    /**
     * @param kind the transport, resolved (see {@link #resolve}): NIO or EPOLL
     * @return its datagram channel class
     */
    static Class<? extends DatagramChannel> channelClass(TransportKind kind) {
        return kind == TransportKind.EPOLL ? EpollDatagramChannel.class : NioDatagramChannel.class;
    }
}
