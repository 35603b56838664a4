// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.perf.rx;

import io.netty.util.NetUtil;
import java.io.FilterInputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiConsumer;
import org.rx4j.config.CongestionControl;
import org.rx4j.config.DebugReplies;
import org.rx4j.config.RxConfig;
import org.rx4j.config.TransportKind;
import org.rx4j.perf.VersionProvider;
import org.rx4j.perf.transport.PerfCall;
import org.rx4j.perf.transport.PerfCallException;
import org.rx4j.perf.transport.PerfCallHandler;
import org.rx4j.perf.transport.PerfClientTransport;
import org.rx4j.perf.transport.PerfConnection;
import org.rx4j.perf.transport.PerfEndpointOptions;
import org.rx4j.perf.transport.PerfSecurity;
import org.rx4j.perf.transport.PerfServerTransport;
import org.rx4j.perf.transport.PerfTransportFactory;
import org.rx4j.perf.transport.RxperfAbortException;
import org.rx4j.rpc.RxAsyncHandler;
import org.rx4j.rpc.RxCall;
import org.rx4j.rpc.RxCallHandler;
import org.rx4j.rpc.RxConnection;
import org.rx4j.rpc.RxEndpoint;
import org.rx4j.rpc.RxService;
import org.rx4j.rpc.errors.RxCodes;
import org.rx4j.rpc.errors.RxException;
import org.rx4j.security.RxNullSecurityClass;
import org.rx4j.security.SecurityClass;
import org.rx4j.security.rxkad.KeyFiles;
import org.rx4j.security.rxkad.LocalAuth;
import org.rx4j.security.rxkad.RxkadClientSecurity;
import org.rx4j.security.rxkad.RxkadCredentials;
import org.rx4j.security.rxkad.RxkadLevel;
import org.rx4j.security.rxkad.RxkadServerSecurity;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * rxperf's transport over rx4j's own RPC API ({@link RxEndpoint}): maps rxperf's flags onto
 * {@link RxConfig} (rx-wire-facts.md §10) and rxperf's call interfaces onto {@link RxCall}.
 * Found by {@link java.util.ServiceLoader}.
 */
public final class RxPerfTransportFactory implements PerfTransportFactory {
    private static final Logger log = LoggerFactory.getLogger(RxPerfTransportFactory.class);
    @Override
    public String name() {
        return "rx4j";
    }

    /**
     * Translates rxperf's options to an engine configuration.
     *
     * @param o the options from the command line
     * @return the configuration
     */
    static RxConfig config(PerfEndpointOptions o) {
        RxConfig.Builder b = RxConfig.builder().versionString(versionString());
        if (o.twind() > 0) {
            b.maxTwind(o.twind());
        }
        if (o.rwind() > 0) {
            b.maxRwind(o.rwind());
        }
        b.jumboMax(o.jumbo() ? o.jumboMax() : 1);
        if (o.maxMtu() > 0) {
            // OpenAFS's meaning: the largest Rx packet. The route to each peer still bounds it (docs/engine.md
            // "Packet size"), and OpenAFS peers, advertising ifMTU 1444, still get at most 1444.
            b.maxMtu(o.maxMtu());
        }
        if (!o.jumbo() && o.maxMtu() == 0) {
            b.maxMtu(1444);
        }
        b.udpBufferBytes(o.udpBufferBytes());
        b.segmentationOffload(o.segmentationOffload());
        b.receiveOffload(o.receiveOffload());
        b.idleSpinNs(o.idleSpinUs() * 1000L);
        b.schedulerSliceNs(o.schedulerSliceUs() * 1000L);
        b.fragmentJumbograms(o.fragmentJumbograms());
        b.minRto(Duration.ofMillis(o.minPeerTimeoutMs()));
        b.hardAckOnly(o.hardAcksOnly());
        b.congestionControl("bbr".equals(o.congestionControl()) ? CongestionControl.BBR : CongestionControl.NEWRENO);
        b.debugReplies(switch (o.debugReplies()) {
            case "always" -> DebugReplies.ALWAYS;
            case "no-amplification" -> DebugReplies.NO_AMPLIFICATION;
            case "never" -> DebugReplies.NEVER;
            default -> DebugReplies.LOOPBACK_OR_NO_AMPLIFICATION;
        });
        return b.build();
    }

    /** @return "rx4j &lt;version&gt;" as answered to rxdebug -version (the version rxperf --version prints) */
    static String versionString() {
        String v = VersionProvider.version();
        return "unknown".equals(v) ? "rx4j" : "rx4j " + v;
    }

    private static TransportKind kind(PerfEndpointOptions o) throws IOException {
        TransportKind kind = o.transport();
        java.util.Optional<String> why = RxEndpoint.unavailabilityReason(kind);
        if (why.isPresent()) {
            throw new IOException(why.get());
        }
        return kind;
    }

    @Override
    public PerfClientTransport newClient(PerfEndpointOptions options) throws IOException {
        return newClient(options, PerfSecurity.NONE);
    }

    /**
     * OpenAFS's {@code -m} is the largest Rx packet; a size the route to the server cannot carry unfragmented is not
     * used (docs/engine.md "Packet size"), and the user is told once which size is (a one-line {@code rxperf:} warning).
     */
    static void warnIfMaxMtuAboveRoute(PerfEndpointOptions options, RxEndpoint endpoint, InetSocketAddress server) {
        if (options.maxMtu() > 0 && !server.isUnresolved()) {
            int largest = endpoint.largestPacketTo(server);
            if (options.maxMtu() > largest) {
                log.warn("-m {} is larger than the route to {} carries: packets of at most {} bytes", options.maxMtu(),
                        NetUtil.toAddressString(server.getAddress()), largest);
            }
        }
    }

    /**
     * The security class of the client's connections: rxnull, or rxkad with a ticket {@link LocalAuth} mints from
     * the key files as OpenAFS's {@code -localauth} does (docs/rxperf.md "Security"): from a KeyFile, or from a
     * server configuration directory's KeyFile and KeyFileExt.
     */
    static SecurityClass clientSecurity(PerfSecurity security) throws IOException {
        if (security.none()) {
            return RxNullSecurityClass.INSTANCE;
        }
        Path keys = security.keyFile();
        RxkadCredentials c = Files.isDirectory(keys) ? LocalAuth.fromDirectory(keys, new SecureRandom())
                : LocalAuth.fromKeys(KeyFiles.readKeyFile(keys), new SecureRandom());
        return new RxkadClientSecurity(RxkadLevel.values()[security.rxkadLevel()], c.sessionKey(), c.kvno(),
                c.ticket());
    }

    @Override
    public PerfClientTransport newClient(PerfEndpointOptions options, PerfSecurity security) throws IOException {
        SecurityClass securityClass = clientSecurity(security);
        // async calls complete on the event loop: the client driver's next call starts there, no thread hand-off
        RxEndpoint endpoint = RxEndpoint.builder().config(config(options)).transport(kind(options))
                .bind(new InetSocketAddress(0)).callbacksOnEventLoop().open();
        return new PerfClientTransport() {
            @Override
            public PerfConnection connect(InetSocketAddress server, int serviceId) {
                warnIfMaxMtuAboveRoute(options, endpoint, server);
                RxConnection conn = endpoint.connect(server, serviceId, securityClass);
                return new PerfConnection() {
                    @Override
                    public PerfCall newCall() throws IOException {
                        try {
                            return new Call(conn.newCall());
                        } catch (RxException e) {
                            throw perfException(e);
                        }
                    }

                    @Override
                    public boolean supportsAsync() {
                        return true;
                    }

                    @Override
                    public CompletableFuture<byte[]> callAsync(byte[] request) {
                        ReplyRelay reply = new ReplyRelay();
                        conn.callAsync(request).whenComplete(reply);
                        return reply;
                    }

                    @Override
                    public void close() {
                        conn.close();
                    }
                };
            }

            @Override
            public Map<String, Long> stats() {
                return endpoint.stats();
            }

            @Override
            public void close() {
                endpoint.close(500);
            }
        };
    }

    @Override
    public PerfServerTransport newServer(PerfEndpointOptions options) throws IOException {
        return newServer(options, PerfSecurity.NONE);
    }

    /**
     * The security class of the server's service: rxnull for {@code --security none}, else rxkad with the KeyFile's
     * DES keys and the level as the minimum.
     */
    private static SecurityClass serverSecurity(PerfSecurity security) throws IOException {
        if (security.none()) {
            return RxNullSecurityClass.INSTANCE;
        }
        RxkadLevel level = RxkadLevel.values()[security.rxkadLevel()];
        // A server directory (KeyFile and KeyFileExt, re-read when asetkey changes them) or a single KeyFile.
        return java.nio.file.Files.isDirectory(security.keyFile())
                ? new RxkadServerSecurity(new org.rx4j.security.rxkad.KeyDirectory(security.keyFile()), level)
                : new RxkadServerSecurity(KeyFiles.readKeyFile(security.keyFile()), level);
    }

    @Override
    public PerfServerTransport newServer(PerfEndpointOptions options, PerfSecurity security) throws IOException {
        RxConfig config = config(options);
        SecurityClass securityClass = serverSecurity(security);
        return new PerfServerTransport() {
            private RxEndpoint endpoint;

            @Override
            public int start(InetSocketAddress bind, int serviceId, PerfCallHandler handler) throws IOException {
                // The service is in place before the first packet is read: no early caller sees ABORT −2.
                RxCallHandler streams = call -> {
                    try {
                        handler.handle(call.input(), call.output());
                    } catch (RxperfAbortException e) {
                        throw RxException.local(e.code(), e.getMessage());
                    }
                };
                RxEndpoint.Builder b = RxEndpoint.builder().config(config).transport(kind(options)).bind(bind)
                        .workers(options.minProcs(), options.maxProcs());
                int prefix = handler.smallCallPrefixBytes();
                if (prefix > 0) {
                    // small calls are answered on the event loop: no hand-off to a server thread and back
                    RxAsyncHandler small = request -> {
                        try {
                            return CompletableFuture.completedFuture(
                                    handler.handleSmall(request.opcode(), request.arguments()));
                        } catch (RxperfAbortException e) {
                            throw RxException.local(e.code(), e.getMessage());
                        }
                    };
                    b.service(RxService.builder(serviceId).securityClass(securityClass).wholeStream(streams, prefix,
                            (bytes, length, whole) -> handler.isSmallCall(bytes, length, whole) ? small : null)
                                    .build());
                } else {
                    b.service(RxService.builder(serviceId).securityClass(securityClass).wholeStream(streams).build());
                }
                endpoint = b.open();
                return endpoint.localAddress().getPort();
            }

            @Override
            public Map<String, Long> stats() {
                return endpoint == null ? Map.of() : endpoint.stats();
            }

            @Override
            public void close() {
                if (endpoint != null) {
                    endpoint.close(500);
                }
            }
        };
    }

    /**
     * @return rxperf's form of an rx4j call failure: the same abort code and message, and whether the server sent
     *     it, its port or host was found unreachable, no route leads there, or it never answered (docs/rxperf.md
     *     "Exit codes")
     */
    static PerfCallException perfException(RxException e) {
        PerfCallException.Kind kind;
        if (e.remote()) {
            kind = PerfCallException.Kind.ABORTED_BY_PEER;
        } else if (e.reason() == RxException.Reason.PEER_UNREACHABLE) {
            kind = PerfCallException.Kind.PORT_UNREACHABLE;
        } else if (e.reason() == RxException.Reason.HOST_UNREACHABLE) {
            kind = PerfCallException.Kind.HOST_UNREACHABLE;
        } else if (e.reason() == RxException.Reason.NO_ROUTE) {
            kind = PerfCallException.Kind.NO_ROUTE;
        } else if (e.code() == RxCodes.RX_CALL_DEAD) {
            kind = PerfCallException.Kind.NO_ANSWER;
        } else {
            kind = PerfCallException.Kind.OTHER;
        }
        return new PerfCallException(e.code(), e.getMessage(), kind);
    }

    /**
     * One rxperf call over an {@link RxCall}; rx4j's RxException becomes rxperf's PerfCallException on every method
     * and stream method, and closing the request stream is {@link #finishRequest()} (the {@link PerfCall} contract).
     */
    private static final class Call implements PerfCall {
        private final RxCall call;
        private final OutputStream out;
        private final InputStream in;

        Call(RxCall call) {
            this.call = call;
            this.out = new FilterOutputStream(call.output()) {
                @Override
                public void write(byte[] b, int off, int len) throws IOException {
                    try {
                        super.out.write(b, off, len);
                    } catch (RxException e) {
                        throw perfException(e);
                    }
                }

                @Override
                public void write(int b) throws IOException {
                    write(new byte[] {(byte) b}, 0, 1);
                }

                @Override
                public void flush() throws IOException {
                    try {
                        super.out.flush();
                    } catch (RxException e) {
                        throw perfException(e);
                    }
                }

                /** Ends the request; FilterOutputStream's close would first flush a short packet, then end. */
                @Override
                public void close() throws IOException {
                    finishRequest();
                }
            };
            this.in = new FilterInputStream(call.input()) {
                @Override
                public int read(byte[] b, int off, int len) throws IOException {
                    try {
                        return super.in.read(b, off, len);
                    } catch (RxException e) {
                        throw perfException(e);
                    }
                }

                @Override
                public int read() throws IOException {
                    try {
                        return super.in.read();
                    } catch (RxException e) {
                        throw perfException(e);
                    }
                }

                @Override
                public long skip(long n) throws IOException {
                    try {
                        return super.in.skip(n);
                    } catch (RxException e) {
                        throw perfException(e);
                    }
                }
            };
        }

        @Override
        public OutputStream requestStream() {
            return out;
        }

        @Override
        public void finishRequest() throws IOException {
            try {
                call.output().close();
            } catch (RxException e) {
                throw perfException(e);
            }
        }

        @Override
        public InputStream replyStream() {
            return in;
        }

        @Override
        public void abort(int code) {
            call.abort(code);
        }

        /** Ends the call; unlike {@link RxCall#close()}, also reports an abort a stream already reported. */
        @Override
        public void close() throws IOException {
            try {
                call.close();
                call.awaitCompletion(); // at once after close(), or as soon as an abort asked for has taken effect
            } catch (RxException e) {
                throw perfException(e);
            }
        }
    }

    /**
     * An async call's future as rxperf's driver sees it: the reply, or the failure with an {@link RxException} turned
     * into its {@link PerfCallException}. A class rather than a lambda per call: the C1-only client allocates a
     * lambda through a VM call (docs/benchmarks.md "Per-call allocations").
     */
    private static final class ReplyRelay extends CompletableFuture<byte[]> implements BiConsumer<byte[], Throwable> {
        @Override
        public void accept(byte[] bytes, Throwable t) {
            if (t == null) {
                complete(bytes);
            } else {
                Throwable cause = t instanceof java.util.concurrent.CompletionException && t.getCause() != null
                        ? t.getCause() : t;
                completeExceptionally(cause instanceof RxException e ? perfException(e) : cause);
            }
        }
    }
}
