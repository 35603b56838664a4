// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine.connection;

import java.util.List;
import org.rx4j.counters.RxCounter;
import org.rx4j.engine.call.Call;
import org.rx4j.engine.call.CallEnv;
import org.rx4j.engine.call.CallOwner;
import org.rx4j.engine.call.CallListener;
import org.rx4j.engine.peer.Peer;
import org.rx4j.engine.security.ConnectionSecurity;
import org.rx4j.engine.telemetry.RxCounters;
import org.rx4j.security.SecurityClass;
import org.rx4j.security.packet.SecurityContext;
import org.rx4j.wire.AbortCodes;
import org.rx4j.wire.AbortPacket;
import org.rx4j.wire.ControlPacket;
import org.rx4j.wire.DataPacket;
import org.rx4j.wire.PacketEncoder;
import org.rx4j.wire.PacketType;
import org.rx4j.wire.RxConstants;
import org.rx4j.wire.RxHeader;
import org.rx4j.wire.RxPacket;

/**
 * One Rx connection (rx-wire-facts.md §1, §6, §7): identity (epoch, cid, service id, security index, peer), its 4
 * channels each with its callNumber and current call, client channel allocation with the FIFO of calls waiting for
 * a channel, server call admission, the per-direction serial counter and the connection's counters. Owns its
 * calls: each gets the connection's fixed {@link CallEnv}, made once here, and the connection itself as its
 * {@link CallOwner} (serials, sending, a freed channel); talks to the engine only through the
 * {@link ConnectionContext} the engine passed down. Owned by the engine's thread.
 */
public final class Connection implements CallOwner {
    private final ConnectionContext link;
    /** What every call of this connection shares; also builds the connection's own headers. */
    private final CallEnv env;
    public final Peer peer;
    public final boolean client;
    public final int epoch;
    public final int cid;
    public final int serviceId;
    /** The connection's security class and its state (rx-wire-facts.md §7, §11). */
    public final ConnectionSecurity security;
    private final Call[] calls = new Call[RxConstants.MAX_CALLS];
    private final int[] callNumbers = new int[RxConstants.MAX_CALLS];
    private final boolean[] busy = new boolean[RxConstants.MAX_CALLS];
    /** Client calls waiting for a channel (FIFO). */
    private final WaitingCalls waiting = new WaitingCalls();
    public final RxCounters counters = new RxCounters(RxCounter.Scope.CONNECTION);
    private int serial;
    long lastActivityNs;
    public boolean closed;
    /** Client: replaced for new calls ({@link ClientConnections}); closed once its calls have finished. */
    boolean retiring;
    /** Error that ended the whole connection (connection ABORT), 0 while usable. */
    public int error;
    /** True when {@link #error} came in the peer's connection ABORT (e.g. its security class refused the handshake). */
    private boolean errorFromPeer;

    public Connection(ConnectionContext link, Peer peer, boolean client, int epoch, int cid, int serviceId,
            SecurityClass securityClass) {
        this.link = link;
        this.peer = peer;
        this.client = client;
        this.epoch = epoch;
        this.cid = cid;
        this.serviceId = serviceId;
        this.security = new ConnectionSecurity(securityClass, client, epoch, cid, serviceId, this::callNumber);
        this.env = env(link);
    }

    /**
     * A server connection whose client the stateless challenge already authenticated (docs/robustness.md "Rule:
     * stateless reachability challenge"): its security context, checked before the connection existed, is taken as
     * it is; its channels then follow the RESPONSE's call numbers.
     *
     * @param link what the connection gets from the engine
     * @param peer the client's peer
     * @param checked the accepted context (epoch, cid, service and class are the connection's)
     * @param callNumbers the call numbers the RESPONSE reported, or null
     */
    public Connection(ConnectionContext link, Peer peer, SecurityContext checked, int[] callNumbers) {
        this.link = link;
        this.peer = peer;
        this.client = false;
        this.epoch = checked.epoch();
        this.cid = checked.cid();
        this.serviceId = checked.serviceId();
        this.security = new ConnectionSecurity(checked);
        this.env = env(link);
        if (callNumbers != null) {
            adoptCallNumbers(callNumbers);
        }
    }

    private CallEnv env(ConnectionContext link) {
        return new CallEnv(link.config(), link.alloc(), link.congestionControl(), link.trace(), link.reusablePackets(),
                peer, counters, security, client, epoch, cid, serviceId);
    }

    /** @return true on the side that created the connection (sends CLIENT_INITIATED) */
    public boolean isClient() {
        return client;
    }

    /** @return the epoch, as on the wire */
    public int epoch() {
        return epoch;
    }

    /** @return the connection id: cid with the channel bits clear */
    public int cid() {
        return cid;
    }

    /** @return the destination service id, 0..65535 */
    public int serviceId() {
        return serviceId;
    }

    /** @return the security index (0 = rxnull) */
    public int securityIndex() {
        return security.index();
    }

    /** @return the remote peer: fixed, as no unauthenticated packet moves a connection (docs/robustness.md) */
    public Peer peer() {
        return peer;
    }

    /**
     * @return the code that ended the whole connection (a connection ABORT, rx-wire-facts.md §6.5: the peer's, e.g. an
     *     rxkad code when the server refused the handshake, or this side's), 0 while it is usable; engine thread
     */
    public int abortCode() {
        return error;
    }

    /** @return true when {@link #abortCode()} came in the peer's connection ABORT; engine thread */
    public boolean abortedByPeer() {
        return errorFromPeer;
    }

    /**
     * @return true once a CHALLENGE arrived on this client connection of a security class other than rxnull: its
     *     server serves the service with that class, so an ABORT −2 before it means the server does not
     *     (docs/errors.md "Local reasons"); engine thread
     */
    public boolean challenged() {
        return security.challenged;
    }

    /** @return true once the connection was closed by this side; engine thread */
    public boolean isClosed() {
        return closed;
    }

    /** @return this connection's counters (read on the engine's thread) */
    public RxCounters counters() {
        return counters;
    }

    /**
     * @param channel 0..3
     * @return the channel's current callNumber (0 before its first call)
     */
    public int callNumber(int channel) {
        return callNumbers[channel];
    }

    /**
     * @param channel 0..3
     * @return the channel's current call (active or dallying), or null
     */
    public Call call(int channel) {
        return calls[channel];
    }

    /**
     * @return the calls on this connection's channels that have not ended, 0..4 (a call that ended and only dallies
     *     for its final ACK is not counted; nor are calls waiting for a channel)
     */
    public int callsInProgress() {
        int n = 0;
        for (Call c : calls) {
            if (c != null && !c.isDone()) {
                n++;
            }
        }
        return n;
    }

    /** @return calls waiting for a free channel (client side) */
    public int waitingCalls() {
        return waiting.size();
    }

    @Override
    public int nextSerial() {
        return ++serial;
    }

    @Override
    public int lastSerial() {
        return serial;
    }

    /**
     * Builds a header for a packet of this connection ({@link CallEnv#header}, a new object).
     *
     * @param channel 0..3
     * @param callNumber the call's number, or 0 for connection-level packets
     * @param seq DATA seq or 0
     * @param serial the packet's serial
     * @param type packet type
     * @param flags flags without CLIENT_INITIATED (added on the client side)
     * @return the header
     */
    public RxHeader header(int channel, int callNumber, int seq, int serial, int type, int flags) {
        return env.header(null, 0, channel, callNumber, seq, serial, type, flags, 0);
    }

    /** Sends one packet of this connection to its peer, counting it (packets by type, bytes). */
    @Override
    public void send(RxPacket p) {
        counters.increment(RxCounter.PACKETS_SENT, RxCounters.typeSlot(p.header().type()));
        int bytes = PacketEncoder.encodedLength(p);
        counters.add(RxCounter.BYTES_SENT, bytes);
        peer.counters().add(RxCounter.BYTES_SENT, bytes);
        link.send(peer.address(), p);
    }

    /**
     * Sends DATA packets of one call as one datagram (a jumbogram when there are several), counting one datagram in
     * packetsSent[DATA] and each sub-packet in dataPacketsSent; clears the list.
     */
    @Override
    public void sendData(List<DataPacket> batch) {
        int k = batch.size();
        counters.increment(RxCounter.PACKETS_SENT, PacketType.DATA);
        counters.add(RxCounter.DATA_PACKETS_SENT, k);
        peer.counters().add(RxCounter.DATA_PACKETS_SENT, k);
        for (int i = 0; i < k; i++) {
            int bytes = RxConstants.HEADER_SIZE + batch.get(i).payload().readableBytes();
            counters.add(RxCounter.BYTES_SENT, bytes);
            peer.counters().add(RxCounter.BYTES_SENT, bytes);
        }
        if (k == 1) {
            link.send(peer.address(), batch.get(0));
        } else {
            link.sendJumbogram(peer.address(), batch);
        }
        batch.clear();
    }

    /** Counts a packet from the connection's own address here and at its peer ({@code bytes}: header + body). */
    public void onReceived(long now, int type, int bytes, boolean lastInDatagram, boolean jumbogram) {
        countReceived(now, type, bytes, lastInDatagram, jumbogram);
        peer.onReceived(now, bytes);
    }

    /** Counts a packet here only; alone for one from another address (it pays no reply, is not the peer heard). */
    public void countReceived(long now, int type, int bytes, boolean lastInDatagram, boolean jumbogram) {
        lastActivityNs = now;
        counters.countReceived(type, bytes, lastInDatagram, jumbogram);
    }

    /**
     * @param channel 0..3
     * @param callNumber a callNumber from a packet
     * @return the channel's call when it has that number, else null
     */
    public Call call(int channel, int callNumber) {
        Call c = calls[channel];
        return c != null && c.callNumber() == callNumber ? c : null;
    }

    /** Server: the client's authenticated call numbers (a RESPONSE's) become the channels' own (§7). */
    public void adoptCallNumbers(int[] numbers) {
        System.arraycopy(numbers, 0, callNumbers, 0, RxConstants.MAX_CALLS);
    }

    /** @return true when some channel has a call that has not finished, or a call waits for one */
    public boolean hasActiveCalls() {
        return callsInProgress() > 0 || !waiting.isEmpty();
    }

    // =====================================================================================
    // Client calls: channel allocation and the waiting queue

    /**
     * Starts a client call on a free channel (preferring non-busy, lowest-numbered), or queues it FIFO when all
     * 4 channels are taken; it starts when one frees (§6).
     *
     * @param now current time, ns
     * @param listener the call's events
     * @param maxWaiting the most calls that may wait for a channel
     * @return the call (state ACTIVE or WAITING)
     * @throws IllegalStateException if the connection is closed or failed, or too many calls wait
     */
    public Call newCall(long now, CallListener listener, int maxWaiting) {
        if (!client || closed) {
            throw new IllegalStateException("connection closed");
        }
        if (error != 0) {
            throw new IllegalStateException("connection aborted: " + AbortCodes.name(error));
        }
        int ch = freeChannel();
        if (ch < 0 && waitingCalls() >= maxWaiting) {
            throw new IllegalStateException("too many calls waiting for a channel");
        }
        Call call = link.newCall(env, this, -1, 0, false, now);
        call.setListener(listener);
        if (ch < 0) {
            waiting.add(call);
        } else {
            startClientCall(ch, call, now);
        }
        return call;
    }

    private void startClientCall(int ch, Call call, long now) {
        int callNumber = callNumbers[ch] + 1;
        callNumbers[ch] = callNumber;
        Call old = calls[ch];
        if (old != null) {
            // The new call implicitly acknowledges the old reply: its delayed ack is not needed (§6.4).
            link.retire(old);
        }
        call.assignChannel(ch, callNumber, now);
        calls[ch] = call;
        busy[ch] = false;
        counters.increment(RxCounter.CALLS_STARTED);
        lastActivityNs = now;
    }

    private int freeChannel() {
        int fallback = -1;
        for (int ch = 0; ch < RxConstants.MAX_CALLS; ch++) {
            Call c = calls[ch];
            if (c == null || c.isDone()) {
                if (!busy[ch]) {
                    return ch;
                }
                if (fallback < 0) {
                    fallback = ch;
                }
            }
        }
        return fallback;
    }

    /** The peer answered BUSY on a client channel: prefer other channels for new calls. */
    public void markBusy(int channel) {
        if (client) {
            busy[channel] = true;
        }
    }

    @Override
    public void callEnded(int channel, long now) {
        if (channel < 0) {
            waiting.removeDone(); // an aborted waiting call leaves the queue
        } else if (client && !waiting.isEmpty() && !closed) {
            // A call ends once and only on the channel it holds, so the channel is free now.
            Call w = waiting.poll();
            startClientCall(channel, w, now);
            w.startedAfterWaiting(now);
        }
    }

    // =====================================================================================
    // Server calls: admission

    /**
     * Server side: admits the new call a DATA packet starts on its channel (§2, §6.4, §7). Never re-runs an
     * older call; a packet far from seq 1 is from before a restart. A running call on the channel ends: it
     * succeeds when its whole reply was sent (the new call acknowledges it) and the new call is admitted; else it
     * is aborted with RX_CALL_DEAD and the new call's packet is answered with BUSY and dropped (OpenAFS does the
     * same; the client's resend is admitted once the channel is free).
     *
     * @param now current time, ns
     * @param h the DATA packet's header (its channel has no call with its callNumber)
     * @param maxRwind the receive window, packets: a new call's first packet lies within it
     * @return the new call (ACTIVE, not yet started), or null when the packet must be dropped (BUSY may have been
     *     sent)
     */
    public Call admitServerCall(long now, RxHeader h, int maxRwind) {
        int ch = h.channel();
        int callNumber = h.callNumber();
        int current = callNumbers[ch];
        if (callNumber - current < 0 && current != 0) {
            return null; // an older call: never re-run a handler (§7)
        }
        if (h.seq() < 1 || h.seq() > maxRwind) {
            return null; // a new call must start near seq 1 (§2): otherwise it is from before a restart
        }
        Call old = calls[ch];
        if (old != null && !old.isDone()) {
            if (old.replySent()) {
                old.succeed(now); // the next call implicitly acknowledges the old reply (§6.4)
            } else {
                // The channel is still busy with a call the client gave up: that call dies, and the new one is
                // answered BUSY and not admitted yet, as OpenAFS does; the client's resend finds a free channel.
                old.sendAbort(AbortCodes.RX_CALL_DEAD);
                old.fail(now, AbortCodes.RX_CALL_DEAD);
                send(new ControlPacket(header(ch, callNumber, 0, nextSerial(), PacketType.BUSY, 0), new byte[0]));
                return null;
            }
        }
        Call fresh = link.newCall(env, this, ch, callNumber, true, now);
        calls[ch] = fresh;
        callNumbers[ch] = callNumber;
        if (old != null) {
            link.retire(old);
        }
        return fresh;
    }

    /**
     * Forgets a server call that never started (a limit evicts it): it fails with RX_CALL_DEAD without sending
     * anything, releases what it holds, and leaves its channel, so the same callNumber is admitted afresh if a
     * real client resends it.
     *
     * @param now current time, ns
     * @param c a PRECALL call of this connection
     */
    public void forgetCall(long now, Call c) {
        c.fail(now, AbortCodes.RX_CALL_DEAD);
        int ch = c.channel();
        if (ch >= 0 && calls[ch] == c) {
            calls[ch] = null;
        }
        link.retire(c);
    }

    // =====================================================================================
    // Ending calls and the connection

    /**
     * Fails the calls on this connection now (ABORT {@code code} sent for each running one, waiting calls dropped)
     * but leaves the connection usable for later calls: used when the server is known unreachable at this moment.
     *
     * @param now current time, ns
     * @param code the abort code, non-zero
     */
    public void abortCalls(long now, int code) {
        failWaiting(now, code);
        for (Call c : calls) {
            if (c != null && !c.isDone()) {
                c.abort(now, code);
            }
        }
    }

    /**
     * Ends every call from this side: waiting ones fail with RX_USER_ABORT (−6) first (each ending call would
     * otherwise hand its channel to one), unfinished ones are aborted with it, and a finished client call that
     * still owes its final ack sends ACKALL (§6.4).
     *
     * @param now current time, ns
     */
    public void endCalls(long now) {
        failWaiting(now, AbortCodes.RX_USER_ABORT);
        security.releaseParked(); // a server's DATA parked before authentication reaches no call now
        for (Call c : calls) {
            if (c == null) {
                continue;
            }
            if (c.isDone()) {
                c.ackAllIfOwed(now);
            } else {
                c.abort(now, AbortCodes.RX_USER_ABORT);
            }
        }
    }

    private void failWaiting(long now, int code) {
        waiting.failAll(now, code);
    }

    /** Aborts the whole connection from this side: sends ABORT with callNumber 0, fails every call with it (§6.5). */
    @Override
    public void abort(long now, int code) {
        send(new AbortPacket(header(0, 0, 0, nextSerial(), PacketType.ABORT, 0), code));
        fail(now, code, false);
    }

    /**
     * Fails every call, waiting ones included, and marks the connection unusable.
     *
     * @param remote true when the code came in the peer's connection ABORT (calls fail as aborted by the peer)
     */
    public void fail(long now, int code, boolean remote) {
        error = code;
        errorFromPeer = remote;
        failWaiting(now, code);
        for (Call c : calls) {
            if (c != null) {
                if (remote) {
                    c.inbound().onAbort(now, code);
                } else {
                    c.fail(now, code);
                }
            }
        }
    }

    /** Marks the connection closed and takes its calls out of the engine's timer queue. */
    void close() {
        closed = true;
        security.close();
        for (Call c : calls) {
            if (c != null) {
                link.retire(c);
            }
        }
    }

    /** @return a header-only description for logs */
    @Override
    public String toString() {
        return (client ? "client" : "server") + "Conn{epoch=" + Integer.toUnsignedString(epoch, 16) + " cid="
                + Integer.toUnsignedString(cid, 16) + " svc=" + serviceId + " peer=" + peer.address() + "}";
    }
}
