// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.security.rxkad;

import java.security.MessageDigest;

/**
 * One key of an AFS server's key files (docs/security.md "Server keys"): what a server decrypts tickets with.
 * Immutable; the key bytes are copied in and out and never appear in {@link #toString()}.
 *
 * @param type the key type: {@link #RXKAD} (a DES key, as in KeyFile), {@link #RXGK} or {@link #RXKAD_KRB5}
 * @param kvno the key version number tickets name
 * @param subType the Kerberos 5 enctype for {@link #RXKAD_KRB5} keys; 0 for DES keys
 * @param key the key bytes (8 for a DES key)
 */
public record ServerKey(int type, int kvno, int subType, byte[] key) {
    /** Key type of the DES keys of KeyFile (and type 0 records of KeyFileExt). */
    public static final int RXKAD = 0;
    /** Key type of rxgk keys. */
    public static final int RXGK = 1;
    /** Key type of Kerberos 5 service keys for rxkad-k5 tickets; the sub-type is the enctype. */
    public static final int RXKAD_KRB5 = 2;

    /**
     * @throws NullPointerException if {@code key} is null
     */
    public ServerKey {
        key = key.clone();
    }

    /** @return a copy of the key bytes */
    @Override
    public byte[] key() {
        return key.clone();
    }

    /** @return whether {@code o} is a key of the same type, version, sub-type and bytes */
    @Override
    public boolean equals(Object o) {
        return o instanceof ServerKey k && k.type == type && k.kvno == kvno && k.subType == subType
                && MessageDigest.isEqual(k.key, key);
    }

    /** @return a hash of type, version and sub-type (not of the key bytes) */
    @Override
    public int hashCode() {
        return (type * 31 + kvno) * 31 + subType;
    }

    /** @return type, version, sub-type and key length, not the key */
    @Override
    public String toString() {
        return "ServerKey[type=" + type + ", kvno=" + kvno + ", subType=" + subType + ", " + key.length + " bytes]";
    }
}
