// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc;

import java.io.ByteArrayInputStream;
import java.net.InetSocketAddress;
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
 * @param identity who the caller proved to be (the connection's security class, e.g. rxkad's ticket), or null on an
 *     rxnull connection; see {@link RxCall#identity()}
 * @param context the call's cancellation context (docs/embedding.md "Cancellation"): cancelled when the caller
 *     aborts the call, its deadline passes or the endpoint closes before the handler's stage completed
 */
public record RxRequest(int opcode, byte[] arguments, InetSocketAddress caller, RxConnectionId connectionId,
                        CallerIdentity identity, RxCallContext context) {
    /**
     * A request outside any running call (e.g. for a handler's unit test): its context is never cancelled.
     *
     * @param opcode the request's first 4 bytes, big-endian
     * @param arguments the rest of the request
     * @param caller the caller's UDP address
     * @param connectionId the caller's connection identity
     * @param identity who the caller proved to be, or null (rxnull)
     */
    public RxRequest(int opcode, byte[] arguments, InetSocketAddress caller, RxConnectionId connectionId,
                     CallerIdentity identity) {
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
        this(opcode, arguments, caller, connectionId, null);
    }

    /**
     * @return an XDR reader over {@link #arguments()} for the server side: a malformed or hostile argument
     *     raises {@link RxException} RXGEN_SS_UNMARSHAL (−453)
     */
    public XdrReader xdr() {
        return new XdrReader(new ByteArrayInputStream(arguments), XdrSide.SERVER);
    }
}
