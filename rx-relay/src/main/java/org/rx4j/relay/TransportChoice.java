// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.relay;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollDatagramChannel;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.DatagramChannel;
import io.netty.channel.socket.nio.NioDatagramChannel;
import io.netty.util.concurrent.DefaultThreadFactory;

/**
 * Which Netty transport the relay's sockets use. Epoll is preferred: its timers are timerfd-based (sub-millisecond
 * release times; NIO's selector wakes with millisecond granularity), and it reads with recvmmsg and writes with
 * sendmmsg.
 */
public enum TransportChoice {
    /** Epoll when the native library loads, else NIO. */
    AUTO,
    /** Netty's native epoll (Linux x86_64); fails to start if unavailable. */
    EPOLL,
    /** Java NIO. */
    NIO;

    /**
     * @return EPOLL or NIO: what this choice runs on here
     * @throws IllegalStateException for EPOLL when the native library is unavailable
     */
    TransportChoice resolve() {
        if (this == AUTO) {
            return Epoll.isAvailable() ? EPOLL : NIO;
        }
        if (this == EPOLL && !Epoll.isAvailable()) {
            Throwable cause = Epoll.unavailabilityCause();
            throw new IllegalStateException("epoll transport unavailable: "
                    + (cause == null ? "unknown reason" : cause.getMessage()));
        }
        return this;
    }

    /** @return a one-thread group for a resolved choice (the caller shuts it down) */
    EventLoopGroup newGroup() {
        IoHandlerFactory factory = this == EPOLL ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
        return new MultiThreadIoEventLoopGroup(1, new DefaultThreadFactory("rx-relay", true), factory);
    }

    /** @return the datagram channel class of a resolved choice */
    Class<? extends DatagramChannel> channelClass() {
        return this == EPOLL ? EpollDatagramChannel.class : NioDatagramChannel.class;
    }
}
