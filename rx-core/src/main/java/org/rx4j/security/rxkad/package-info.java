// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

/**
 * rxkad, the security class of OpenAFS cells (security index 2; docs/security.md): {@link
 * org.rx4j.security.rxkad.RxkadClientSecurity} and {@link org.rx4j.security.rxkad.RxkadServerSecurity} for
 * connections and services, and what they are built on: fcrypt, the packet checksum and sealing, the CHALLENGE and
 * RESPONSE payloads, v4-style and Kerberos 5 tickets (with their enctypes), rxkad-kdf, {@code -localauth}, the
 * server's KeyFile and UserList readers, and the Kerberos 5 keytab and credential-cache readers.
 */
package org.rx4j.security.rxkad;
