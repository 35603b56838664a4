// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.security;

/**
 * An Rx security class as an application holds it (rx-wire-facts.md §7, §11): what {@code RxEndpoint.connect},
 * {@code RxService.Builder.securityClass} and the channel and pool factories take, naming the class a connection
 * runs under by its index and name. The classes are {@link RxNullSecurityClass#INSTANCE} and rxkad's
 * {@code RxkadClientSecurity} and {@code RxkadServerSecurity}; how each protects packets (security header, checksum,
 * CHALLENGE and RESPONSE) is internal to the module (docs/security.md "The security SPI").
 *
 * <p>An implementation written outside this library has no packet work behind it: {@code RxEndpoint.connect} and
 * service registration refuse it with {@link IllegalArgumentException}.
 */
public interface SecurityClass {

    /** @return the index in header byte 23 of every packet of its connections, 0..255 (see {@link SecurityIndex}) */
    int securityIndex();

    /** @return a short name for logs, e.g. {@code "rxnull"} or {@code "rxkad"} */
    String name();
}
