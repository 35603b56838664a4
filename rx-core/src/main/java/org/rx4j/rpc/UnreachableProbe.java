// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.PortUnreachableException;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.util.concurrent.TimeUnit;
import org.rx4j.wire.RxConstants;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds out fast that nothing listens at a server's port (docs/embedding.md, "A peer that does not answer"). The
 * endpoint's own socket is unconnected and shared by every peer, and Netty 4.2 does not read the Linux error queue,
 * so ICMP errors for its packets are never seen. This probe sends one Rx VERSION request (packet type 13 with
 * CLIENT_INITIATED and a body as long as the reply, a debug packet every Rx server answers without state,
 * rx-wire-facts.md §2, §9)
 * from its own UDP socket <em>connected</em> to
 * the server: the kernel then reports an ICMP port unreachable for exactly that 5-tuple as ECONNREFUSED
 * ({@link PortUnreachableException}) on the socket's next read, so only an ICMP error that matches the packet rx4j
 * sent is acted on. Checked a few times on the event loop within {@link #CHECK_DELAYS_MS}; an answer, any other
 * error or the last check closes the socket. Started and checked on the event loop, so its verdict and the
 * calls it judges are ordered (see RxConnection#probeOnLoop).
 */
final class UnreachableProbe {
    private static final Logger log = LoggerFactory.getLogger(UnreachableProbe.class);
    /** When the probe socket is read after the probe was sent, ms of real time (ICMP comes back within an RTT). */
    static final long[] CHECK_DELAYS_MS = {20, 100, 500, 2000};
    /** Rx packet type VERSION (rx-wire-facts.md §2). */
    private static final byte TYPE_VERSION = 13;
    /** Header flag CLIENT_INITIATED. */
    private static final byte CLIENT_INITIATED = 1;
    /** An Rx header is 28 bytes. */
    private static final int HEADER_BYTES = 28;

    /** What the probe found out. */
    interface Outcome {
        /** @param reason why the server is known unreachable, for the calls' exceptions */
        void unreachable(String reason);

        /** The server answered the probe: something listens at its port (on the event loop, before done). */
        void answered();

        /** The probe is over (after {@link #unreachable}, an answer, no verdict or an error); on the event loop. */
        void done();
    }

    private final EndpointRuntime rt;
    private final DatagramChannel channel;
    private final InetSocketAddress server;
    private final Outcome outcome;
    private final ByteBuffer probe;
    private int check;

    private UnreachableProbe(EndpointRuntime rt, DatagramChannel channel, InetSocketAddress server, Outcome outcome,
                             ByteBuffer probe) {
        this.probe = probe;
        this.rt = rt;
        this.channel = channel;
        this.server = server;
        this.outcome = outcome;
    }

    /**
     * The probe datagram: a VERSION request whose body is zeros as long as the version reply (65 bytes), so that a
     * server which sends no reply larger than its query to a non-loopback address (rx4j's default debug-reply policy,
     * docs/robustness.md "Rule: unsolicited traffic, loops and amplification") answers it too, instead of withholding the reply and logging a withheld rxdebug query.
     *
     * @return header (rx-wire-facts.md §1) then body, position 0, {@value #HEADER_BYTES} + 65 bytes
     */
    static ByteBuffer request() {
        ByteBuffer probe = ByteBuffer.allocate(HEADER_BYTES + RxConstants.VERSION_REPLY_SIZE);
        probe.putInt((int) (System.nanoTime() >>> 16)); // epoch: any value, a VERSION request has no connection
        probe.position(20);
        probe.put(TYPE_VERSION).put(CLIENT_INITIATED);
        probe.position(0);
        return probe;
    }

    /**
     * Sends the probe and schedules its checks; does nothing when the socket cannot be opened (the dead time then
     * applies, as without a probe). On the event loop (the outcome may be told before this returns).
     *
     * @param rt the endpoint's shared parts (its event loop runs the checks)
     * @param server the server's address
     * @param outcome told once if the server's port is unreachable (on the event loop)
     */
    static void start(EndpointRuntime rt, InetSocketAddress server, Outcome outcome) {
        DatagramChannel ch = null;
        try {
            ch = DatagramChannel.open();
            ch.configureBlocking(false);
            ch.connect(server);
            ByteBuffer probe = request();
            ch.write(probe);
            UnreachableProbe p = new UnreachableProbe(rt, ch, server, outcome, probe);
            p.schedule();
        } catch (PortUnreachableException e) {
            // An ICMP error for this connected 5-tuple already: equally conclusive.
            close(ch);
            outcome.unreachable(reason(server));
            outcome.done();
        } catch (IOException | RuntimeException e) {
            log.debug("no unreachability probe for {}: {}", server, e.toString());
            close(ch);
            outcome.done();
        }
    }

    private void schedule() {
        try {
            rt.transport.loop().schedule(this::check, CHECK_DELAYS_MS[check], TimeUnit.MILLISECONDS);
        } catch (RuntimeException e) { // the loop is shutting down
            close(channel);
            outcome.done();
        }
    }

    /** Loop: reads the probe socket once; an ICMP port unreachable surfaces here as ECONNREFUSED. */
    private void check() {
        try {
            ByteBuffer b = ByteBuffer.allocate(HEADER_BYTES + 128);
            boolean answered = channel.read(b) > 0;
            if (answered) {
                outcome.answered();
            }
            if (answered || ++check >= CHECK_DELAYS_MS.length || rt.closing) {
                close(channel); // answered (reachable), or no verdict: the dead time applies
                outcome.done();
                return;
            }
            // Again before the next look: the kernel rate-limits the ICMP errors it sends (icmp_msgs_per_sec,
            // burst 50), so one probe's answer may never have been generated.
            probe.rewind();
            channel.write(probe);
            schedule();
        } catch (PortUnreachableException e) {
            close(channel);
            outcome.unreachable(reason(server));
            outcome.done();
        } catch (IOException e) {
            close(channel);
            outcome.done();
        }
    }

    private static String reason(InetSocketAddress server) {
        return "peer unreachable: " + server + " answered a probe from a connected UDP socket with ICMP port "
                + "unreachable (ECONNREFUSED)";
    }

    private static void close(DatagramChannel ch) {
        if (ch == null) {
            return;
        }
        try {
            ch.close();
        } catch (IOException e) {
            log.debug("closing the unreachability probe", e);
        }
    }
}
