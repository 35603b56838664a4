// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

/**
 * rxkad's primitives (internal: the module does not export this package): fcrypt and its PCBC mode, the packet
 * checksum and packet sealing of the three levels (docs/security.md "Packet checksum"), rxkad-kdf, and the Kerberos 5
 * enctypes tickets arrive in (DES-PCBC, DES3-CBC-SHA1, RC4-HMAC; RFC 3961, RFC 4757).
 */
package org.rx4j.security.rxkad.crypto;
