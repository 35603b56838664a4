// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

/**
 * rx4j core: the AFS Rx RPC protocol over UDP. Exports only the public API: {@code org.rx4j.rpc} (endpoint,
 * connection, call, service), {@code org.rx4j.rpc.channel} (pools, channels, retry policy and budget),
 * {@code org.rx4j.rpc.errors} (RxException, RxCodes, RxErrorTables), {@code org.rx4j.rpc.stats} (statistics
 * snapshots), {@code org.rx4j.rpc.xdr}, {@code org.rx4j.rpc.debug} (a client of any Rx server's DEBUG/VERSION
 * packets, as rxdebug asks them), {@code org.rx4j.config} (RxConfig, CongestionControl, TransportKind),
 * {@code org.rx4j.counters} (RxCounter: every counter declared once), the security classes as applications hold
 * them, {@code org.rx4j.security} and rxkad's {@code org.rx4j.security.rxkad} (its client and server classes,
 * credentials and keys). The wire codec, the engine, the transport, the rpc implementation (the sub-packages of
 * {@code org.rx4j.rpc} other than channel, errors, stats, xdr and debug), the security classes' packet work
 * ({@code org.rx4j.security.packet}) and rxkad's primitives ({@code org.rx4j.security.rxkad.crypto}: ciphers,
 * checksum, sealing; {@code org.rx4j.security.rxkad.handshake}: CHALLENGE, RESPONSE, tickets) are internal; the
 * compiler's {@code -Xlint:exports} (with -Werror) refuses an exported signature that names one of their types.
 *
 * <p>rx-perf and rx-bench run from shaded jars on the class path, where this descriptor does not apply; the JMH
 * benchmarks reach engine and wire internals that way (their "bench hook"), so no qualified export is needed. A
 * benchmark module on the module path would need {@code exports org.rx4j.wire to org.rx4j.bench;} here.
 */
module org.rx4j.core {
    // Not transitive: no exported signature names a Netty type (the security classes' packet work is internal).
    requires io.netty.buffer;
    requires io.netty.common;
    requires io.netty.transport;
    requires io.netty.transport.classes.epoll;
    // Errors.NativeIoException: the errno of a GSO send the kernel refused (transport.DatagramEncoder).
    requires io.netty.transport.unix.common;
    requires org.slf4j;
    // RxEndpoint registers its MXBean with the platform MBean server and hands out its ObjectName.
    requires transitive java.management;

    exports org.rx4j.rpc;
    exports org.rx4j.rpc.channel;
    exports org.rx4j.rpc.errors;
    exports org.rx4j.rpc.stats;
    exports org.rx4j.rpc.xdr;
    exports org.rx4j.rpc.debug;
    exports org.rx4j.config;
    exports org.rx4j.counters;
    exports org.rx4j.security;
    exports org.rx4j.security.rxkad;
}
