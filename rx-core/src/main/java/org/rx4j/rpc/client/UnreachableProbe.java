// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc.client;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import org.rx4j.rpc.RxConnection;
import org.rx4j.rpc.errors.RxException;
import org.rx4j.rpc.runtime.EndpointRuntime;
import org.rx4j.wire.RxConstants;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds out fast that a server cannot be reached (docs/embedding.md, "A peer that does not answer"). The
 * endpoint's own socket is unconnected and shared by every peer, and Netty 4.2 does not read the Linux error queue,
 * so ICMP errors for its packets are never seen. This probe sends one Rx VERSION request (packet type 13 with
 * CLIENT_INITIATED and a body as long as the reply, a debug packet every Rx server answers without state,
 * rx-wire-facts.md §2, §9) from its own UDP socket <em>connected</em> to the server ({@link ProbeSocket}): the
 * kernel reports an ICMP port, host or network unreachable for exactly that 5-tuple on the socket's next read, and a
 * missing route at its connect, so only an error that matches the packet rx4j sent is acted on. Checked a few times
 * on the event loop within {@link #CHECK_DELAYS_MS}, re-sending before each look; an answer, the last check or the
 * endpoint's close ends it. Started and checked on the event loop, so its verdict and the calls it judges are
 * ordered (see RxConnection#probeOnLoop).
 */
public final class UnreachableProbe {
    private static final Logger log = LoggerFactory.getLogger(UnreachableProbe.class);
    /**
     * When the probe socket is read after the probe was sent, ms of real time: ICMP port unreachable comes back
     * within a round trip, ICMP host unreachable for a host on the local network only when neighbour resolution
     * gives up (3 s on Linux: 3 ARP requests 1 s apart), so it is looked at every 500 ms until 3.62 s.
     */
    static final long[] CHECK_DELAYS_MS = {20, 100, 500, 500, 500, 500, 500, 500, 500};
    /** Rx packet type VERSION (rx-wire-facts.md §2). */
    private static final byte TYPE_VERSION = 13;
    /** Header flag CLIENT_INITIATED. */
    private static final byte CLIENT_INITIATED = 1;
    /** An Rx header is 28 bytes. */
    private static final int HEADER_BYTES = 28;

    /** What the probe found out. */
    public interface Outcome {
        /** @param verdict why the server is known unreachable, for the calls' exceptions (on the event loop) */
        void unreachable(PeerUnreachable verdict);

        /** The server answered the probe: something listens at its port (on the event loop, before done). */
        void answered();

        /** The probe is over (after {@link #unreachable}, an answer, no verdict or an error); on the event loop. */
        void done();
    }

    private final EndpointRuntime rt;
    private final ProbeSocket channel;
    private final InetSocketAddress server;
    private final Outcome outcome;
    private final ByteBuffer probe;
    private int check;
    /** The probe is over (socket closed, outcome told done). */
    private boolean ended;

    private UnreachableProbe(EndpointRuntime rt, ProbeSocket channel, InetSocketAddress server, Outcome outcome,
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
    public static void start(EndpointRuntime rt, InetSocketAddress server, Outcome outcome) {
        ProbeSocket ch = null;
        try {
            ch = ProbeSocket.open(server);
        } catch (IOException | RuntimeException e) {
            RxException.Reason why = e instanceof IOException io ? ProbeSocket.verdict(io, true) : null;
            if (why != null) { // no route here: nothing can be sent to the server at all
                outcome.unreachable(verdict(why, server, e));
            } else {
                log.debug("no unreachability probe for {}: {}", server, e.toString());
            }
            outcome.done();
            return;
        }
        ByteBuffer probe = ByteBuffer.allocateDirect(HEADER_BYTES + RxConstants.VERSION_REPLY_SIZE).put(request());
        probe.flip();
        UnreachableProbe p = new UnreachableProbe(rt, ch, server, outcome, probe);
        p.sendAndSchedule();
    }

    /** Loop: sends the probe (again) and schedules the next look, or ends the probe on an error. */
    private void sendAndSchedule() {
        try {
            channel.send(probe);
        } catch (IOException e) {
            if (!judged(e)) {
                log.debug("unreachability probe of {}: {}", server, e.toString());
            }
            // an error that says nothing about the server: the next look may still find one that does
        }
        if (ended) {
            return;
        }
        try {
            rt.transport.loop().schedule(this::check, CHECK_DELAYS_MS[check], TimeUnit.MILLISECONDS);
        } catch (RuntimeException e) { // the loop is shutting down
            end();
        }
    }

    /** Loop: reads the probe socket once; an ICMP unreachable for its 5-tuple surfaces here as an error. */
    private void check() {
        if (ended) {
            return;
        }
        boolean answered = false;
        try {
            ByteBuffer b = ByteBuffer.allocateDirect(HEADER_BYTES + 128);
            answered = channel.read(b) > 0;
        } catch (IOException e) {
            if (judged(e)) {
                return;
            }
        }
        if (answered) {
            outcome.answered();
        }
        if (answered || ++check >= CHECK_DELAYS_MS.length || rt.closing) {
            end(); // answered (reachable), or no verdict: the dead time applies
            return;
        }
        // Again before the next look: the kernel rate-limits the ICMP errors it sends (icmp_msgs_per_sec,
        // burst 50), so one probe's answer may never have been generated.
        sendAndSchedule();
    }

    /** @return true if {@code e} showed the server unreachable: the outcome was told and the probe ended */
    private boolean judged(IOException e) {
        RxException.Reason why = ProbeSocket.verdict(e, false);
        if (why == null) {
            return false;
        }
        outcome.unreachable(verdict(why, server, e));
        end();
        return true;
    }

    private void end() {
        if (!ended) {
            ended = true;
            close(channel);
            outcome.done();
        }
    }

    /**
     * @param why what the socket's error means
     * @param server the server's address
     * @param e the error
     * @return the verdict with a message naming the server and what was seen
     */
    public static PeerUnreachable verdict(RxException.Reason why, InetSocketAddress server, Exception e) {
        String seen = switch (why) {
            case PEER_UNREACHABLE -> "port unreachable: nothing listens at " + server
                    + " (ICMP port unreachable answered a probe from a connected UDP socket)";
            case HOST_UNREACHABLE -> "host unreachable: " + server.getAddress().getHostAddress()
                    + " does not answer (ICMP host unreachable answered a probe from a connected UDP socket: on the"
                    + " local network, no answer to ARP or neighbour discovery)";
            default -> "no route to " + server.getAddress().getHostAddress() + " (" + e.getMessage() + ")";
        };
        return new PeerUnreachable(why, seen);
    }

    private static void close(ProbeSocket ch) {
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
