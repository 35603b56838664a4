// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.security;

/**
 * What a security class reports about one connection for the DEBUG protocol's connection listings (struct
 * rx_securityObjectStats inside rx_debugConn, rx-wire-facts.md §9; docs/security.md "Seeing the level"): Debian's
 * {@code rxdebug -allconnections} prints it as e.g. {@code rxkad: level crypt, flags authenticated pktCksum, expires
 * in 9.5 hours} followed by the byte and packet counts. Immutable.
 *
 * @param type the kind of class as rxdebug names it: {@link #TYPE_NONE} (nothing printed), {@link #TYPE_RXKAD}
 * @param level the class's level on the connection (rxkad: 0 clear, 1 auth, 2 crypt)
 * @param flags {@link #FLAG_UNALLOCATED}, {@link #FLAG_AUTHENTICATED}, {@link #FLAG_EXPIRED},
 *     {@link #FLAG_PACKET_CHECKSUM} or'ed
 * @param expires when the connection's credential ends, seconds since 1970 (unsigned 32 bits); 0 for none or never
 * @param packetsReceived DATA packets the class checked on this connection, count
 * @param packetsSent DATA packets the class prepared on this connection, count
 * @param bytesReceived user bytes of those received packets
 * @param bytesSent user bytes of those sent packets
 */
public record SecurityStats(int type, int level, int flags, long expires, long packetsReceived, long packetsSent,
                            long bytesReceived, long bytesSent) {
    /** {@link #type()} of a class that reports nothing (rxnull): rxdebug prints no statistics line. */
    public static final int TYPE_NONE = 0;
    /** {@link #type()} of rxkad: rxdebug prints its level, flags, expiry and counts. */
    public static final int TYPE_RXKAD = 3;
    /** The connection has no security state yet. */
    public static final int FLAG_UNALLOCATED = 1;
    /** A server connection whose RESPONSE was accepted. */
    public static final int FLAG_AUTHENTICATED = 2;
    /** The connection's credential has ended. */
    public static final int FLAG_EXPIRED = 4;
    /** A packet checksum was seen (and checked) on the connection. */
    public static final int FLAG_PACKET_CHECKSUM = 8;
    /** What a class without statistics reports: all zero. */
    public static final SecurityStats NONE = new SecurityStats(TYPE_NONE, 0, 0, 0, 0, 0, 0, 0);
}
