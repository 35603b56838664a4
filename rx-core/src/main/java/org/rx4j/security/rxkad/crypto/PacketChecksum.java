// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.security.rxkad.crypto;

/**
 * The 16-bit checksum every DATA packet of an rxkad connection carries in the Rx header's spare field (bytes 24..25),
 * at every level, and the per-connection value it is mixed with (docs/security.md "Packet checksum").
 *
 * <p>The per-connection value binds the checksum to one connection: the 16-byte endpoint block (epoch, connection
 * id without the channel bits, a zero word, security index; all big-endian) is PCBC-encrypted under the session key
 * from the session IV, and its last 8 bytes are the value. A packet's checksum encrypts one block (call number;
 * channel in the top 2 bits over the low 30 bits of seq) XORed with that value, and takes bits 16..31 of the
 * second half. 0 means "no checksum" on the wire, so a computed 0 is sent as 1.
 *
 * <p>Both are pure functions of their arguments and allocate nothing.
 */
public final class PacketChecksum {
    private PacketChecksum() {
    }

    /**
     * The per-connection value a connection's packet checksums are mixed with. Computed once per connection (the
     * client when it creates the connection, the server when it accepts the RESPONSE).
     *
     * @param key the session key schedule
     * @param iv the session IV (the session key as a big-endian long)
     * @param epoch the connection's epoch, as in the Rx header
     * @param cid the connection id; the channel bits (1..0) are ignored
     * @param securityIndex the connection's security index (2 for rxkad)
     * @return the 8-byte value as a big-endian long
     */
    public static long connectionValue(Fcrypt key, long iv, int epoch, int cid, int securityIndex) {
        long first = ((long) epoch << 32) | ((cid & ~3) & 0xffffffffL);
        long second = securityIndex & 0xffffffffL;
        long c0 = key.encrypt(first ^ iv);
        return key.encrypt(second ^ first ^ c0);
    }

    /**
     * The header checksum of one packet (each sub-packet of a jumbogram has its own, from its own seq).
     *
     * @param key the session key schedule
     * @param connectionValue the value from {@link #connectionValue}
     * @param callNumber the packet's call number
     * @param cid the packet's connection id; only the channel bits (1..0) are used
     * @param seq the packet's sequence number; only its low 30 bits are used
     * @return the checksum, 1..65535, for the header's spare field
     */
    public static int compute(Fcrypt key, long connectionValue, int callNumber, int cid, int seq) {
        long block = ((long) callNumber << 32) | ((((cid & 3L) << 30) | (seq & 0x3fffffffL)));
        long e = key.encrypt(block ^ connectionValue);
        int sum = (int) (e >>> 16) & 0xffff;
        return sum == 0 ? 1 : sum;
    }
}
