// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.security.rxkad;

import java.io.IOException;
import java.util.List;
import java.util.Optional;

/**
 * Where an rxkad server finds the keys that open tickets (docs/security.md "Server keys"): {@link #of} for keys
 * given in code, {@link KeyDirectory} for an AFS server's KeyFile and KeyFileExt (re-read when they change).
 * Implementations are thread-safe.
 */
public interface ServerKeySource {
    /**
     * @return the current keys
     * @throws IOException if they cannot be read (a key file that became unreadable or malformed)
     */
    List<ServerKey> keys() throws IOException;

    /**
     * @param kvno the ticket's key version
     * @return the DES key ({@link ServerKey#RXKAD}) of that version
     * @throws IOException as {@link #keys()}
     */
    default Optional<ServerKey> desKey(int kvno) throws IOException {
        return keys().stream().filter(k -> k.type() == ServerKey.RXKAD && k.kvno() == kvno).findFirst();
    }

    /**
     * @param kvno the key version the ticket's enc-part names
     * @param enctype the enctype it is encrypted with
     * @return the rxkad_krb5 key ({@link ServerKey#RXKAD_KRB5}) of that version and enctype
     * @throws IOException as {@link #keys()}
     */
    default Optional<ServerKey> krb5Key(int kvno, int enctype) throws IOException {
        return keys().stream()
                .filter(k -> k.type() == ServerKey.RXKAD_KRB5 && k.kvno() == kvno && k.subType() == enctype)
                .findFirst();
    }

    /**
     * @param keys the keys (copied)
     * @return a source that always has exactly these keys
     */
    static ServerKeySource of(List<ServerKey> keys) {
        List<ServerKey> copy = List.copyOf(keys);
        return () -> copy;
    }
}
