// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.security.rxkad;

import org.rx4j.security.rxkad.crypto.Blocks;
import org.rx4j.security.rxkad.crypto.Fcrypt;
import org.rx4j.security.rxkad.crypto.PacketChecksum;

/**
 * An rxkad session key: the 8-byte key a ticket carries, its fcrypt schedule, and the IV rxkad derives from it (the
 * key's own bytes, docs/security.md "Packet checksum"). Immutable and thread-safe. The key never appears in
 * {@link #toString()}.
 */
public final class SessionKey {
    private final long key;
    private final Fcrypt schedule;

    /**
     * @param key the 8 key bytes as a big-endian long
     */
    public SessionKey(long key) {
        this.key = key;
        this.schedule = new Fcrypt(key);
    }

    /**
     * @param key the 8 key bytes, in wire order
     * @return the session key
     * @throws IllegalArgumentException if {@code key} is not 8 bytes
     */
    public static SessionKey of(byte[] key) {
        if (key.length != Fcrypt.BLOCK_SIZE) {
            throw new IllegalArgumentException("rxkad session key must be 8 bytes, got " + key.length);
        }
        return new SessionKey(Blocks.get(key, 0));
    }

    /** @return the key's fcrypt schedule (an internal type: package callers only) */
    Fcrypt schedule() {
        return schedule;
    }

    /** @return the PCBC IV rxkad starts every packet and the RESPONSE from: the key bytes as a big-endian long */
    public long iv() {
        return key;
    }

    /**
     * The per-connection checksum value under this key ({@link PacketChecksum#connectionValue}).
     *
     * @param epoch the connection's epoch
     * @param cid the connection id (channel bits ignored)
     * @param securityIndex the connection's security index
     * @return the value to pass to {@link PacketChecksum#compute}
     */
    public long connectionValue(int epoch, int cid, int securityIndex) {
        return PacketChecksum.connectionValue(schedule, key, epoch, cid, securityIndex);
    }

    /** @return a description that does not reveal the key */
    @Override
    public String toString() {
        return "SessionKey[8 bytes, not shown]";
    }
}
