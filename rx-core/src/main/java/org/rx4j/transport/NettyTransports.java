// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.transport;

import io.netty.channel.Channel;
import io.netty.channel.ChannelException;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollChannelOption;
import io.netty.channel.epoll.EpollDatagramChannel;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.DatagramChannel;
import io.netty.channel.socket.nio.NioDatagramChannel;
import org.rx4j.config.TransportKind;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Maps the user's {@link TransportKind} choice onto Netty's event loop and datagram channel classes. */
public final class NettyTransports {
    private static final Logger log = LoggerFactory.getLogger(NettyTransports.class);

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
        return newEventLoopGroup(kind, threadName, new IdleSpin(0), new SchedulerSlice(0));
    }

    /**
     * Creates a one-thread event loop group of this kind that waits as {@code idle} says.
     *
     * @param kind the transport, resolved (see {@link #resolve}): NIO or EPOLL
     * @param threadName base name of the loop thread
     * @param idle how the loop waits when it has nothing to do (docs/transport.md "Idle spin"); serves this loop only
     * @param slice the scheduler slice the loop's thread asks for as it starts (docs/transport.md "Scheduler slice")
     * @return the group (the caller shuts it down)
     * @throws IllegalStateException if the transport is not available
     */
    static EventLoopGroup newEventLoopGroup(TransportKind kind, String threadName, IdleSpin idle,
            SchedulerSlice slice) {
        if (!isAvailable(kind)) {
            throw new IllegalStateException(unavailabilityReason(kind));
        }
        IoHandlerFactory factory = kind == TransportKind.EPOLL ? EpollIoHandler.newFactory(0, idle)
                : NioIoHandler.newFactory(java.nio.channels.spi.SelectorProvider.provider(), idle);
        return new MultiThreadIoEventLoopGroup(1, new LoopThreads(threadName, slice), factory);
    }

    /** Daemon loop threads that ask for the group's scheduler slice before they run the loop. */
    private static final class LoopThreads extends io.netty.util.concurrent.DefaultThreadFactory {
        private final SchedulerSlice slice;

        LoopThreads(String threadName, SchedulerSlice slice) {
            super(threadName, true);
            this.slice = slice;
        }

        @Override
        public Thread newThread(Runnable loop) {
            return super.newThread(() -> {
                try {
                    slice.applyToCurrentThread();
                } finally {
                    loop.run();
                }
            });
        }
    }

    /**
     * @param kind the transport, resolved (see {@link #resolve}): NIO or EPOLL
     * @return its datagram channel class
     */
    static Class<? extends DatagramChannel> channelClass(TransportKind kind) {
        return kind == TransportKind.EPOLL ? EpollDatagramChannel.class : NioDatagramChannel.class;
    }

    /**
     * Whether a socket of this kind sends runs of equal-size datagrams with UDP GSO (docs/transport.md
     * "Segmentation offload").
     *
     * @param kind the transport, resolved: NIO or EPOLL
     * @param asked the configuration's {@code segmentationOffload}
     * @return true for EPOLL when asked and Netty's native library reports the kernel's UDP_SEGMENT and sendmmsg
     *     ({@link EpollDatagramChannel#isSegmentedDatagramPacketSupported()}); false otherwise (NIO has no GSO)
     */
    static boolean segmentationOffload(TransportKind kind, boolean asked) {
        return asked && kind == TransportKind.EPOLL && EpollDatagramChannel.isSegmentedDatagramPacketSupported();
    }

    /**
     * Turns UDP GRO on for an epoll socket: the kernel then hands several datagrams of one sender over in one read,
     * which Netty splits back into datagrams before the decoder sees them. A kernel without UDP_GRO (before Linux 5.0)
     * refuses it; the socket then reads datagram by datagram, as without offload.
     *
     * @param channel a bound epoll datagram channel, not yet reading
     * @return true when the option was set
     */
    static boolean enableReceiveOffload(Channel channel) {
        try {
            return channel.config().setOption(EpollChannelOption.UDP_GRO, true);
        } catch (ChannelException e) {
            log.debug("rx4j: UDP GRO unavailable on {}", channel.localAddress(), e);
            return false;
        }
    }
}
