// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

/**
 * rxkad, the security class of OpenAFS cells (security index 2; docs/security.md): {@link
 * org.rx4j.security.rxkad.RxkadClientSecurity} and {@link org.rx4j.security.rxkad.RxkadServerSecurity} for
 * connections and services, their credentials and keys: session keys, Kerberos 5 tickets and principals,
 * {@code -localauth}, the server's KeyFile and UserList readers, and the Kerberos 5 keytab and credential-cache
 * readers. What they are built on is internal (not exported by the module): the ciphers, packet checksum and sealing
 * and rxkad-kdf in {@code org.rx4j.security.rxkad.crypto}, the CHALLENGE and RESPONSE payloads and the tickets they
 * carry in {@code org.rx4j.security.rxkad.handshake}.
 */
package org.rx4j.security.rxkad;
