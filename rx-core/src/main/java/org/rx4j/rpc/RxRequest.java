// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc;

import java.io.ByteArrayInputStream;
import java.net.InetSocketAddress;
import java.util.Objects;
import java.util.Optional;
import org.rx4j.rpc.errors.RxException;
import org.rx4j.rpc.xdr.XdrReader;
import org.rx4j.rpc.xdr.XdrSide;
import org.rx4j.security.CallerIdentity;

/**
 * A whole request, as an {@link RxAsyncHandler} receives it.
 *
 * @param opcode the request's first 4 bytes, big-endian (rxgen's opcode)
 * @param arguments the rest of the request, bytes; owned by the handler (no copy is kept)
 * @param caller the caller's UDP address
 * @param connectionId the caller's connection identity
 * @param identity who the caller proved to be (the connection's security class, e.g. rxkad's ticket), or empty on an
 *     rxnull connection; the same type as {@link RxCall#identity()} and {@link RxCallInfo#identity()}
 * @param context the call's cancellation context (docs/embedding.md "Cancellation"): cancelled when the caller
 *     aborts the call, its deadline passes or the endpoint closes before the handler's stage completed
 */
public record RxRequest(int opcode, byte[] arguments, InetSocketAddress caller, RxConnectionId connectionId,
                        Optional<CallerIdentity> identity, RxCallContext context) {
    /**
     * Checks the components.
     *
     * @throws NullPointerException if identity or context is null (an rxnull caller's identity is empty)
     */
    public RxRequest {
        Objects.requireNonNull(identity, "identity");
        Objects.requireNonNull(context, "context");
    }

    /**
     * A request outside any running call (e.g. for a handler's unit test): its context is never cancelled.
     *
     * @param opcode the request's first 4 bytes, big-endian
     * @param arguments the rest of the request
     * @param caller the caller's UDP address
     * @param connectionId the caller's connection identity
     * @param identity who the caller proved to be, or empty (rxnull)
     * @throws NullPointerException if identity is null
     */
    public RxRequest(int opcode, byte[] arguments, InetSocketAddress caller, RxConnectionId connectionId,
                     Optional<CallerIdentity> identity) {
        this(opcode, arguments, caller, connectionId, identity, new RxCallContext());
    }

    /**
     * A request from a caller that proved no identity (rxnull).
     *
     * @param opcode the request's first 4 bytes, big-endian
     * @param arguments the rest of the request
     * @param caller the caller's UDP address
     * @param connectionId the caller's connection identity
     */
    public RxRequest(int opcode, byte[] arguments, InetSocketAddress caller, RxConnectionId connectionId) {
        this(opcode, arguments, caller, connectionId, Optional.empty());
    }

    /**
     * @return an XDR reader over {@link #arguments()} for the server side: a malformed or hostile argument
     *     raises {@link RxException} RXGEN_SS_UNMARSHAL (−453)
     */
    public XdrReader xdr() {
        return new XdrReader(new ByteArrayInputStream(arguments), XdrSide.SERVER);
    }
}
