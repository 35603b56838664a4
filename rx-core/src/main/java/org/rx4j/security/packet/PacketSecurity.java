// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.security.packet;

import io.netty.buffer.ByteBuf;
import java.util.Optional;
import org.rx4j.security.CallerIdentity;
import org.rx4j.security.SecurityAbortException;
import org.rx4j.security.SecurityClass;
import org.rx4j.security.SecurityStats;
import org.rx4j.wire.RxConstants;

/**
 * The packet work of an Rx security class (rxnull, rxkad): what the engine asks of it for each connection and each
 * DATA packet (rx-wire-facts.md §1 spare/checksum, §5 data per packet, §7 challenge/response, §11). Internal: the
 * module does not export this package, so no Netty type reaches the public API. An application holds the exported
 * {@link SecurityClass} handle; the engine finds the handle's packet work with {@link PacketSecurityAccess#of}
 * (docs/security.md "The security SPI").
 *
 * <p>It extends {@link SecurityClass} so that a class written inside the module (rxkad's per-side classes, test
 * classes) is its own handle and may be given where a handle is taken.
 *
 * <p>One instance serves many connections: it holds configuration (keys, level, credentials) and keeps
 * per-connection state in {@link SecurityContext#state()}. Every method is called on the thread that owns
 * the connection, one call at a time per connection; an instance shared across event loops must be
 * thread-safe itself (rxnull is stateless).
 *
 * <p><b>Per-packet layout.</b> The body of a DATA packet (after the 28-byte Rx header) is
 * {@code [security header][data][security trailer]}; {@link #headerSize} and {@link #trailerSize} are the
 * most bytes each may take, so a packet of {@code packetSize} bytes carries at most
 * {@code packetSize - 28 - headerSize - trailerSize} data bytes ({@link #maxDataPerPacket}). Only DATA
 * packets pass through the class; every other packet type is sent with spare 0 and not checked.
 *
 * <p><b>Buffers.</b> Every {@link ByteBuf} passed in is borrowed: the class may read and write its bytes
 * and move its reader/writer index as the method says, but never releases, retains or keeps it after
 * returning. The engine owns it before and after the call.
 *
 * <p><b>Errors.</b> Checks return an abort code (0 = accepted) so that hostile input costs no allocation;
 * producing methods throw {@link SecurityAbortException}. Either way the engine aborts the connection with
 * the code (ABORT with callNumber 0). Methods never throw for any input bytes.
 */
public interface PacketSecurity extends SecurityClass {

    /**
     * Sets up per-connection state (e.g. derive an IV from epoch and cid) in {@link SecurityContext#setState}.
     * Called once, right after the engine creates the context and before any other method for it.
     *
     * @param ctx the new connection's context
     */
    default void newConnection(SecurityContext ctx) {
    }

    /**
     * Drops per-connection state (e.g. wipe keys). Called once when the connection is destroyed; no other
     * method is called for {@code ctx} afterwards.
     *
     * @param ctx the dying connection's context
     */
    default void destroyConnection(SecurityContext ctx) {
    }

    /**
     * @param ctx the connection
     * @return bytes of security header at the start of every DATA body, 0..; constant for the connection
     */
    int headerSize(SecurityContext ctx);

    /**
     * @param ctx the connection
     * @return most bytes of security trailer (e.g. padding) {@link #prepareOutgoing} may append to a DATA
     *     body, 0..; constant for the connection
     */
    int trailerSize(SecurityContext ctx);

    /**
     * Data bytes one DATA packet can carry: {@code packetSize - 28 - headerSize - trailerSize}
     * (rx-wire-facts.md §5).
     *
     * @param ctx the connection
     * @param packetSize the packet size in bytes, Rx header included (e.g. the call MTU, 1444)
     * @return data bytes per packet, 0 or more
     */
    default int maxDataPerPacket(SecurityContext ctx, int packetSize) {
        return Math.max(0, packetSize - RxConstants.HEADER_SIZE - headerSize(ctx) - trailerSize(ctx));
    }

    /**
     * The exact DATA body {@link #prepareOutgoing} makes from {@code dataBytes} of data: the engine sends jumbograms
     * only of packets whose prepared body is exactly 1412 bytes (rx-wire-facts.md §4), so it asks before preparing.
     *
     * @param ctx the connection
     * @param dataBytes data bytes in the packet, 0..
     * @return bytes of the prepared body; by default {@code headerSize + dataBytes + trailerSize}, which a class that
     *     appends less than its whole trailer must override
     */
    default int preparedLength(SecurityContext ctx, int dataBytes) {
        return headerSize(ctx) + dataBytes + trailerSize(ctx);
    }

    /**
     * Whether {@link #prepareOutgoing} on this connection, now, only computes the spare/checksum: no security header,
     * no trailer, and the data's bytes and length left as they are (rxkad at clear). The engine then hands the class
     * a retained slice of the queued data instead of a copy (docs/security.md "In the engine"); a class that says
     * true and writes to the packet anyway corrupts the queued data, which a re-cut would send again.
     *
     * @param ctx the connection
     * @return false by default (the engine copies the data into a body of its own first)
     */
    default boolean preparesWithoutChange(SecurityContext ctx) {
        return false;
    }

    /**
     * Secures one outgoing DATA packet and returns the value for its header's spare/checksum field
     * (offset 24). Called once per DATA packet, when its data is complete and before its first transmission;
     * retransmissions and jumbogram sub-packets resend the prepared bytes with the same spare (the jumbo header
     * carries it for sub-packets 2..k, §4). A packet the engine re-cuts after a path-MTU fall (docs/engine.md
     * "Path MTU below one full packet") is a new packet, with new data and perhaps a new seq, and is prepared
     * again from its plain data; the class must not assume one call per seq. The packet's seq, callNumber and
     * channel are final by then; its serial is not (it changes per transmission), so nothing may depend on it.
     *
     * <p>Buffer contract (borrowed, not released): on entry the readable region is
     * {@code [headerSize(ctx) reserved bytes, content unspecified][data bytes]}, and at least
     * {@code trailerSize(ctx)} bytes are writable without reallocation. The class writes its header into
     * the reserved bytes, may transform the data in place (sign, encrypt), and may append up to
     * {@code trailerSize(ctx)} bytes by advancing the writer index. It does not move the reader index. On
     * return the readable region is the DATA body to send.
     *
     * @param ctx the connection
     * @param channel the call's channel, 0..3
     * @param callNumber the call's callNumber (unsigned 32-bit)
     * @param seq the packet's seq, 1.. (unsigned 32-bit)
     * @param packet the DATA body as described above
     * @return the spare/checksum value, 0..65535 (0 = none)
     * @throws SecurityAbortException if the packet cannot be secured (the connection is aborted with its code)
     */
    int prepareOutgoing(SecurityContext ctx, int channel, int callNumber, int seq, ByteBuf packet)
            throws SecurityAbortException;

    /**
     * Verifies one incoming DATA packet and narrows it to its data. Called once per DATA packet before the
     * application may read it (a jumbogram's sub-packets one by one, each with its expanded header).
     * A failure aborts the whole connection, as in OpenAFS (rx_rdwr.c), not just the call.
     *
     * <p>Buffer contract (borrowed, not released): on entry the readable region is the DATA body as
     * received (security header, data, trailer). The class may rewrite those bytes in place (decrypt) and,
     * when it returns 0, has moved the reader and writer indexes so that the readable region is exactly the
     * application data. When it returns a code, bytes and indexes are unspecified and the engine drops the
     * packet.
     *
     * @param ctx the connection
     * @param header the packet's header: epoch, cid (with channel), callNumber, seq, flags and the
     *     spare/checksum value as received; borrowed, refilled for the next packet (not kept after returning)
     * @param packet the DATA body as described above
     * @return 0 when the packet is genuine, otherwise the abort code for the connection
     */
    int checkIncoming(SecurityContext ctx, PacketHeader header, ByteBuf packet);

    /**
     * Client side: whether new calls should go to a new connection of this class rather than this one, because this
     * connection's credentials ended (rxkad: its ticket's end passed on the class's clock, or the server aborted the
     * connection with RXKADEXPIRED). The engine then opens a new connection (new cid) whose {@link #newConnection}
     * picks fresh credentials; calls in flight finish on this one (docs/security.md "Ticket expiry"). Asked when a
     * new call starts.
     *
     * @param ctx a client connection
     * @param abortCode the code the whole connection was aborted with, or 0 while it is usable
     * @return false by default (rxnull, or a class with fixed credentials: a new connection would carry the same)
     */
    default boolean needsNewConnection(SecurityContext ctx, int abortCode) {
        return false;
    }

    /**
     * Who the peer proved to be on this connection, for the service handlers of its calls (server side, once the
     * RESPONSE was accepted).
     *
     * @param ctx the connection
     * @return the caller's identity, or null when the class proves none (rxnull) or not yet
     */
    default CallerIdentity identity(SecurityContext ctx) {
        return null;
    }

    /**
     * The connection's statistics for the DEBUG protocol's connection listings (rxdebug's per-connection security
     * line). Called on the connection's event loop.
     *
     * @param ctx the connection
     * @return the statistics; {@link SecurityStats#NONE} by default (rxnull reports none)
     */
    default SecurityStats stats(SecurityContext ctx) {
        return SecurityStats.NONE;
    }

    /**
     * Server side: may a call start on this connection now (rx-wire-facts.md §7)? When false, the engine
     * holds the call and sends a CHALLENGE with {@link #challengeBody}.
     *
     * @param ctx a server connection
     * @return true when no (further) challenge is needed
     */
    boolean isAuthenticated(SecurityContext ctx);

    /**
     * Server side: the body of a CHALLENGE packet (callNumber 0). Called for each (re)send of the
     * challenge (OpenAFS resends every 2 s, up to 50 times, §7); a class that keeps a nonce returns the same
     * body until the response is checked.
     *
     * @param ctx a server connection that is not authenticated
     * @return the body (the caller may keep it; the class no longer changes it), or empty when this
     *     class never challenges
     */
    Optional<byte[]> challengeBody(SecurityContext ctx);

    /**
     * Server side, the stateless challenge (docs/robustness.md "Rule: stateless reachability challenge"): the body of
     * a CHALLENGE sent to a source before any connection exists, carrying {@code nonce}, a keyed cookie of the
     * source address and the connection's ids that the engine recomputes when the RESPONSE comes
     * ({@link #newChallengedConnection}). The answer then proves at once that the source hears us and who it is, in
     * one round trip and with nothing kept for the source but what the engine keeps anyway.
     *
     * @param nonce the challenge's nonce (any 32-bit value)
     * @return the body, or empty (the default) when this class has no stateless challenge: the engine then proves
     *     the source with its reachability PING and challenges the connection afterwards ({@link #challengeBody})
     */
    default Optional<byte[]> statelessChallengeBody(int nonce) {
        return Optional.empty();
    }

    /**
     * Server side: whether {@link #statelessChallengeBody} returns a body, asked for each RESPONSE that reaches no
     * connection without making one.
     *
     * @return false by default; true for a class that implements the stateless challenge
     */
    default boolean hasStatelessChallenge() {
        return false;
    }

    /**
     * Server side: sets up a connection's state as {@link #newConnection} does, but for the stateless challenge that
     * carried {@code nonce} ({@link #statelessChallengeBody}), so that {@link #checkResponse} checks the RESPONSE
     * against it. Called instead of {@code newConnection} on a context the engine made for a RESPONSE that reached
     * no connection; if the check accepts it, the engine makes the connection with that context.
     *
     * @param ctx a server context not yet set up
     * @param nonce the nonce the stateless CHALLENGE carried
     * @throws UnsupportedOperationException by default (a class without {@link #statelessChallengeBody} is never
     *     asked)
     */
    default void newChallengedConnection(SecurityContext ctx, int nonce) {
        throw new UnsupportedOperationException(name() + " has no stateless challenge");
    }

    /**
     * Client side: the body of the RESPONSE to a CHALLENGE (rx-wire-facts.md §7). rxkad, for example,
     * answers with the connection's epoch, cid and the four channels' call numbers (from {@code ctx})
     * sealed with the session key.
     *
     * @param ctx a client connection
     * @param challengeBody the CHALLENGE body as received (untrusted; any length); not modified or kept
     * @return the body; the caller may keep it and the class no longer changes it (may be empty)
     * @throws SecurityAbortException if the challenge is malformed or cannot be met (the client aborts the
     *     connection with its code)
     */
    byte[] responseBody(SecurityContext ctx, byte[] challengeBody) throws SecurityAbortException;

    /**
     * Server side: checks a RESPONSE (untrusted). On success the connection becomes authenticated
     * ({@link #isAuthenticated} turns true) and the class may report the client's call numbers with
     * {@link SecurityContext#setResponseCallNumbers}.
     *
     * @param ctx a server connection
     * @param responseBody the RESPONSE body as received (any length); not modified or kept
     * @return 0 when accepted, otherwise the abort code for the connection
     */
    int checkResponse(SecurityContext ctx, byte[] responseBody);
}
