// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.security.rxkad;

import java.security.SecureRandom;
import java.util.List;
import java.util.function.LongSupplier;
import java.util.random.RandomGenerator;
import org.rx4j.security.CallerIdentity;
import org.rx4j.security.SecurityClass;
import org.rx4j.security.SecurityIndex;
import org.rx4j.security.packet.PacketSecurityAccess;

/**
 * The server side of rxkad (security index 2; docs/security.md): each new connection is challenged (a version-2
 * CHALLENGE with a random nonce and this server's minimum level); the RESPONSE's ticket is opened with the server key
 * of its kvno, its times checked, and its sealed part checked against the connection, the nonce and the minimum level.
 * Only then do the connection's calls reach their handler, which sees the caller's {@link CallerIdentity}; every
 * DATA packet is checked and opened at the level the client chose. Register it with
 * {@code RxEndpoint.registerService(serviceId, securityClass, handler)}.
 *
 * <p>Tickets, by the RESPONSE's kvno: a v4-style ticket (kvno 0..255) sealed
 * with the DES key ({@link ServerKey#RXKAD}) of that version, a Kerberos 5 ticket (kvno 256, rxkad-k5, what
 * {@code kinit} users send) or the "2b" form (kvno 213, what OpenAFS's {@code -localauth} mints when the server has an
 * rxkad_krb5 key), both opened with the {@link ServerKey#RXKAD_KRB5} key of the enctype and version they name. The
 * keys come from a {@link ServerKeySource}: a {@link KeyDirectory} over an AFS server's KeyFile and KeyFileExt
 * (re-read when they change), or keys given in code. A handle: how its connections check packets is internal
 * (docs/security.md "The security SPI"). Thread-safe when its key source is. No key, ticket or session key appears
 * in a message.
 */
public final class RxkadServerSecurity implements SecurityClass {
    static {
        PacketSecurityAccess.register(RxkadServerSecurity.class, s -> s.packets);
    }

    private final RxkadLevel minLevel;
    private final RxkadServerPackets packets;

    /**
     * A server over keys given in code, with the wall clock and a {@link SecureRandom} for nonces.
     *
     * @param keys the server's keys (copied): DES keys for v4-style tickets, rxkad_krb5 keys for Kerberos 5 tickets
     * @param minLevel the least level a client may run at; below it the RESPONSE is refused with
     *     {@link RxkadCodes#RXKADLEVELFAIL} before any call of the connection reaches its handler
     * @throws NullPointerException if an argument is null
     */
    public RxkadServerSecurity(List<ServerKey> keys, RxkadLevel minLevel) {
        this(ServerKeySource.of(keys), minLevel);
    }

    /**
     * A server with the wall clock and a {@link SecureRandom} for nonces.
     *
     * @param keys where the keys come from (read on the event loop for each RESPONSE; e.g. a {@link KeyDirectory})
     * @param minLevel the least level a client may run at; below it the RESPONSE is refused with
     *     {@link RxkadCodes#RXKADLEVELFAIL} before any call of the connection reaches its handler
     * @throws NullPointerException if an argument is null
     */
    public RxkadServerSecurity(ServerKeySource keys, RxkadLevel minLevel) {
        this(keys, minLevel, () -> System.currentTimeMillis() / 1000, new SecureRandom());
    }

    /**
     * @param keys where the keys come from
     * @param minLevel the least level a client may run at
     * @param clockSeconds the wall clock, seconds since 1970, for tickets' times (tests pass a fixed one)
     * @param random where CHALLENGE nonces come from (use a {@link SecureRandom} outside tests)
     * @throws NullPointerException if an argument is null
     */
    public RxkadServerSecurity(ServerKeySource keys, RxkadLevel minLevel, LongSupplier clockSeconds,
                               RandomGenerator random) {
        this.packets = new RxkadServerPackets(keys, minLevel, clockSeconds, random);
        this.minLevel = minLevel;
    }

    /** @return the least level this server accepts */
    public RxkadLevel minLevel() {
        return minLevel;
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

    /** @return e.g. {@code rxkad-server[min AUTH]} */
    @Override
    public String toString() {
        return "rxkad-server[min " + minLevel + "]";
    }
}
