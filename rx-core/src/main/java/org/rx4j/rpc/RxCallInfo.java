// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc;

import java.net.InetSocketAddress;
import java.util.Optional;
import java.util.OptionalInt;
import org.rx4j.rpc.runtime.ApiAccess;
import org.rx4j.security.CallerIdentity;

/**
 * What an interceptor knows about one call when it starts (docs/embedding.md "Interceptors"). Immutable but for
 * its {@link #context()}, which the call's end cancels.
 */
public final class RxCallInfo {
    /** {@link #opcodeOrNone} when the opcode is not known (a value no int opcode has). */
    static final long NO_OPCODE = ApiAccess.NO_OPCODE;

    private final boolean server;
    private final int serviceId;
    private final long opcodeOrNone;
    private final String procName;
    private final InetSocketAddress peer;
    private final RxConnectionId connectionId;
    private final CallerIdentity identity;
    private final RxCallContext context;

    /**
     * @param server true on the server side
     * @param serviceId 1..65535
     * @param opcodeOrNone the opcode, or {@link #NO_OPCODE}
     * @param procName the procedure's name, or null
     * @param peer the other side's address
     * @param connectionId the connection's identity
     * @param identity the caller's proven identity (server side), or null
     * @param context the call's cancellation context
     */
    RxCallInfo(boolean server, int serviceId, long opcodeOrNone, String procName, InetSocketAddress peer,
               RxConnectionId connectionId, CallerIdentity identity, RxCallContext context) {
        this.server = server;
        this.serviceId = serviceId;
        this.opcodeOrNone = opcodeOrNone;
        this.procName = procName;
        this.peer = peer;
        this.connectionId = connectionId;
        this.identity = identity;
        this.context = context;
    }

    /** @return true for a call this endpoint serves, false for one it makes */
    public boolean isServer() {
        return server;
    }

    /** @return the service id, 1..65535 */
    public int serviceId() {
        return serviceId;
    }

    /**
     * @return the request's opcode (rxgen's first 4 bytes): known for {@link RxService} calls and routed calls on a
     *     server, and for the typed call forms and a {@code newCall} whose {@link RxCallOptions} carry an opcode on a client; empty for whole-stream calls
     */
    public OptionalInt opcode() {
        return opcodeOrNone == NO_OPCODE ? OptionalInt.empty() : OptionalInt.of((int) opcodeOrNone);
    }

    /** @return the procedure's name from {@link RxEndpoint.Builder#procNames}, or empty when unknown */
    public Optional<String> procName() {
        return Optional.ofNullable(procName);
    }

    /** @return the caller's address on a server, the server's on a client */
    public InetSocketAddress peer() {
        return peer;
    }

    /** @return the connection's identity (epoch, cid, service id, security index) */
    public RxConnectionId connectionId() {
        return connectionId;
    }

    /** @return the security index of the call's connection (0 rxnull, 2 rxkad) */
    public int securityIndex() {
        return connectionId.securityIndex();
    }

    /**
     * @return who the caller proved to be (server side, e.g. rxkad's ticket); empty on an rxnull connection
     *     (anonymous) and on the client side
     */
    public Optional<CallerIdentity> identity() {
        return Optional.ofNullable(identity);
    }

    /** @return the call's cancellation context */
    public RxCallContext context() {
        return context;
    }

    /** @return e.g. {@code "server 1234/GetEntry(3) from /10.0.0.1:7001"} */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder(server ? "server " : "client ").append(serviceId);
        if (procName != null || opcodeOrNone != NO_OPCODE) {
            sb.append('/');
        }
        if (procName != null) {
            sb.append(procName);
        }
        if (opcodeOrNone != NO_OPCODE) {
            sb.append(procName != null ? "(" + opcodeOrNone + ")" : String.valueOf(opcodeOrNone));
        }
        return sb.append(server ? " from " : " to ").append(peer).toString();
    }
}
