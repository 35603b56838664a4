// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.relay;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.socket.DatagramPacket;
import org.rx4j.relay.core.DropReason;

/**
 * The relay's two inbound handlers. Each releases the received {@link DatagramPacket} after the shell has copied
 * its payload; a read burst ends with one flush and one timer check.
 */
final class RelayHandlers {
    private RelayHandlers() {
    }

    /** Reads the listen socket: client datagrams, going upstream. */
    static final class Listen extends ChannelInboundHandlerAdapter {
        private final RelayShell shell;

        Listen(RelayShell shell) {
            this.shell = shell;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            DatagramPacket p = (DatagramPacket) msg;
            try {
                shell.onClientDatagram(p.sender(), p.content());
            } finally {
                p.release();
            }
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            shell.endOfBurst();
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            // A failed downstream write (void promise) or a read error; the socket stays open.
            shell.downstreamCounters().dropped(DropReason.RELAY_SOCKET);
        }
    }

    /** Reads one client's upstream socket: the target's datagrams for that client, going downstream. */
    static final class Upstream extends ChannelInboundHandlerAdapter {
        private final RelayShell shell;
        private final ClientFlow flow;

        Upstream(RelayShell shell, ClientFlow flow) {
            this.shell = shell;
            this.flow = flow;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            DatagramPacket p = (DatagramPacket) msg;
            try {
                shell.onServerDatagram(flow, p.content());
            } finally {
                p.release();
            }
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            shell.endOfBurst();
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            // A failed upstream write (void promise) or a read error; the socket stays open.
            shell.upstreamCounters().dropped(DropReason.RELAY_SOCKET);
        }
    }
}
