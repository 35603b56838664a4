// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.security.rxkad;

import java.util.Objects;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.rx4j.security.SecurityClass;
import org.rx4j.security.SecurityIndex;
import org.rx4j.security.packet.PacketSecurityAccess;

/**
 * The client side of rxkad (security index 2; docs/security.md): a connection runs at one {@link RxkadLevel} under
 * the session key of a ticket, answers the server's CHALLENGE with a RESPONSE carrying the ticket, and protects every
 * DATA packet (checksum; at auth the first block, at crypt the whole padded payload encrypted). Give it to
 * {@code RxEndpoint.connect(server, serviceId, securityClass)}.
 *
 * <p>Credentials, two ways (docs/security.md "Ticket expiry"). Fixed ones (session key, kvno, ticket) serve every
 * connection; when the ticket ends the server aborts the connection with {@link RxkadCodes#RXKADEXPIRED} and its calls
 * fail. A credential supplier (a re-read of a ccache, a re-mint by {@link LocalAuth}) is asked once per new connection;
 * once the ticket's end passes on this class's clock, or the server aborted the connection with RXKADEXPIRED, the
 * engine is told to start the next call on a new connection (new cid), which asks the supplier again, while calls in
 * flight finish on the old one, as OpenAFS clients do.
 *
 * <p>A handle: how its connections protect packets is internal (docs/security.md "The security SPI"). Thread-safe
 * when the supplier is. Neither the key nor the ticket appears in {@link #toString()} or in any message.
 */
public final class RxkadClientSecurity implements SecurityClass {
    static {
        PacketSecurityAccess.register(RxkadClientSecurity.class, c -> c.packets);
    }

    private final RxkadLevel level;
    private final RxkadClientPackets packets;

    /**
     * A client with fixed credentials: every connection carries this ticket, and none is replaced when it ends.
     *
     * @param level the level every connection runs at (the server refuses one below its minimum)
     * @param sessionKey the session key the ticket carries
     * @param kvno the ticket's key version: 0..255 for a v4-style ticket sealed with the server's DES key of that
     *     version, 256 for a Kerberos 5 ticket (rxkad-k5), 213 for the "2b" form
     * @param ticket the ticket, 32..12,000 bytes, opaque to the client (copied)
     * @throws IllegalArgumentException if the ticket length is outside 32..12,000 or kvno outside 0..256
     * @throws NullPointerException if an argument is null
     */
    public RxkadClientSecurity(RxkadLevel level, SessionKey sessionKey, int kvno, byte[] ticket) {
        this.level = Objects.requireNonNull(level, "level");
        this.packets = new RxkadClientPackets(level,
                new RxkadCredentials(sessionKey, kvno, ticket, TicketLifetime.NEVER, ""), null,
                RxkadClientSecurity::wallClockSeconds);
    }

    /**
     * A client whose connections take fresh credentials from {@code credentials} and are replaced once those end, on
     * the wall clock.
     *
     * @param level the level every connection runs at
     * @param credentials asked once per new connection, on the endpoint's event loop (keep it quick: e.g. re-read a
     *     ccache only when its file changed); it may throw an unchecked exception (e.g. {@code UncheckedIOException}),
     *     which {@code RxEndpoint.connect} throws wrapped in a {@code CompletionException}, and which later fails the
     *     call that needed a new connection with RX_INVALID_OPERATION (−2) and its message
     * @throws NullPointerException if an argument is null
     */
    public RxkadClientSecurity(RxkadLevel level, Supplier<RxkadCredentials> credentials) {
        this(level, credentials, RxkadClientSecurity::wallClockSeconds);
    }

    /**
     * As {@link #RxkadClientSecurity(RxkadLevel, Supplier)} on a given clock.
     *
     * @param level the level every connection runs at
     * @param credentials asked once per new connection, on the endpoint's event loop
     * @param clockSeconds the wall clock, seconds since 1970, against which a ticket's end is checked when a call
     *     starts (tests pass a virtual one)
     * @throws NullPointerException if an argument is null
     */
    public RxkadClientSecurity(RxkadLevel level, Supplier<RxkadCredentials> credentials, LongSupplier clockSeconds) {
        this.level = Objects.requireNonNull(level, "level");
        this.packets = new RxkadClientPackets(level, null, Objects.requireNonNull(credentials, "credentials"),
                Objects.requireNonNull(clockSeconds, "clockSeconds"));
    }

    private static long wallClockSeconds() {
        return System.currentTimeMillis() / 1000;
    }

    /** @return the level this client's connections run at */
    public RxkadLevel level() {
        return level;
    }

    /** @return 2 (rxkad) */
    @Override
    public int securityIndex() {
        return SecurityIndex.RXKAD;
    }

    /** @return {@code "rxkad"} */
    @Override
    public String name() {
        return "rxkad";
    }

    /** @return e.g. {@code rxkad-client[CRYPT, kvno 3]} ({@code supplied} for a supplier), without key or ticket */
    @Override
    public String toString() {
        return packets.toString();
    }
}
