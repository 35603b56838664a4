// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.interop;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.rx4j.rpc.RxCall;
import org.rx4j.rpc.RxConnection;
import org.rx4j.rpc.RxEndpoint;
import org.rx4j.rpc.errors.RxException;
import org.rx4j.rpc.xdr.XdrReader;
import org.rx4j.rpc.xdr.XdrSide;
import org.rx4j.rpc.xdr.XdrWriter;

/**
 * A client for the cell-configuration RPCs of OpenAFS's BOS server, written from the bosint facts in
 * {@code docs/interop.md} (Rx service id 1 on UDP 7007, rxnull at security index 0 with {@code -noauth}).
 * rxgen call shape: the request is the opcode as an XDR int32 followed by the IN arguments; the reply is
 * the OUT arguments only; a failure is a call ABORT carrying the code, which surfaces as {@link RxException}.
 * Every RPC is a new call on one connection, as {@code bos} does.
 *
 * <p>Not thread-safe (one test thread drives it). Each call has a deadline of {@link #CALL_DEADLINE_MS}, so
 * a silent server fails the call with RX_CALL_TIMEOUT (−3) instead of hanging.
 */
final class BosClient implements AutoCloseable {
    /** Rx service id of the bozo service (bosserver.c registers service 1). */
    static final int SERVICE_ID = 1;
    /** {@code BOZO_GetCellName(OUT string name<BOZO_BSSIZE>)}. */
    static final int OP_GET_CELL_NAME = 94;
    /** {@code BOZO_GetCellHost(IN afs_uint32 awhich, OUT string name<BOZO_BSSIZE>)}. */
    static final int OP_GET_CELL_HOST = 95;
    /** {@code BOZO_AddCellHost(IN string name<BOZO_BSSIZE>)}. */
    static final int OP_ADD_CELL_HOST = 96;
    /** Lowest opcode of the bosint interface (bosint.h BOZO_LOWEST_OPCODE). */
    static final int LOWEST_OPCODE = 80;
    /** Highest opcode of the bosint interface (bosint.h BOZO_HIGHEST_OPCODE). */
    static final int HIGHEST_OPCODE = 116;
    /** {@code BOZO_BSSIZE}: the declared maximum of every bosint string, bytes. */
    static final int BOZO_BSSIZE = 256;
    /** com_err code BZDOM ("index out of range"): GetCellHost past the last host. Table bz, base 39424. */
    static final int BZDOM = 39429;
    /** Longest any one RPC may take before it is aborted locally, ms. */
    static final long CALL_DEADLINE_MS = 10_000;

    private final RxConnection connection;

    /**
     * Opens a connection (no packet is sent until the first call).
     *
     * @param endpoint the rx4j endpoint to call from
     * @param server the bosserver's address, e.g. 127.0.0.1:7007
     */
    BosClient(RxEndpoint endpoint, InetSocketAddress server) {
        this.connection = endpoint.connect(server, SERVICE_ID);
    }

    /**
     * {@code GetCellName} (opcode 94).
     *
     * @return the cell name, at most 256 bytes (ISO-8859-1 chars)
     * @throws RxException with the server's abort code, or −451 if the reply does not decode
     * @throws IOException if the call fails locally
     */
    String getCellName() throws IOException {
        try (RxCall call = start(OP_GET_CELL_NAME)) {
            call.output().close();
            return readStringReply(call);
        }
    }

    /**
     * {@code GetCellHost} (opcode 95). A clone host comes back as {@code [name]}.
     *
     * @param index 0-based host index, 0..4,294,967,295
     * @return the host's name as the server's CellServDB names it
     * @throws RxException with code {@link #BZDOM} when index is past the last host, another server abort
     *     code, or −451 if the reply does not decode
     * @throws IOException if the call fails locally
     */
    String getCellHost(long index) throws IOException {
        try (RxCall call = start(OP_GET_CELL_HOST)) {
            new XdrWriter(call.output(), XdrSide.CLIENT).writeUnsignedInt(index);
            call.output().close();
            return readStringReply(call);
        }
    }

    /**
     * All hosts, as {@code bos listhosts} collects them: {@code GetCellHost(0)}, {@code (1)}, ... until the
     * server answers BZDOM.
     *
     * @param limit most hosts to ask for before giving up, &gt;= 1 (a server that never says BZDOM is a failure)
     * @return the host names in index order
     * @throws RxException with any abort code other than BZDOM
     * @throws IOException if a call fails locally, or the server listed {@code limit} hosts without BZDOM
     */
    List<String> getCellHosts(int limit) throws IOException {
        List<String> hosts = new ArrayList<>();
        for (int index = 0; index < limit; index++) {
            try {
                hosts.add(getCellHost(index));
            } catch (RxException e) {
                if (e.remote() && e.code() == BZDOM) {
                    return hosts;
                }
                throw e;
            }
        }
        throw new IOException("no BZDOM after " + limit + " hosts: " + hosts);
    }

    /**
     * {@code AddCellHost} (opcode 96): the server appends the host to its CellServDB (a name already there
     * changes nothing; a name that does not resolve aborts with 70354688, AFSCONF_FAILURE).
     *
     * @param name host name or dotted address, at most 256 bytes; {@code [name]} marks a clone
     * @throws RxException with the server's abort code, or −450 if the name cannot be encoded
     * @throws IOException if the call fails locally
     */
    void addCellHost(String name) throws IOException {
        try (RxCall call = start(OP_ADD_CELL_HOST)) {
            new XdrWriter(call.output(), XdrSide.CLIENT).writeString(name, BOZO_BSSIZE);
            call.output().close();
            expectEnd(call, "AddCellHost");
        }
    }

    /**
     * Calls {@code opcode} with no arguments and returns whatever the server replies; for opcodes the
     * server lacks, whose rxgen dispatcher aborts the call with RXGEN_OPCODE (−455).
     *
     * @param opcode any int, sent as the XDR int32 opcode
     * @return the reply bytes
     * @throws RxException with the server's abort code
     * @throws IOException if the call fails locally
     */
    byte[] callWithoutArguments(int opcode) throws IOException {
        try (RxCall call = start(opcode)) {
            call.output().close();
            return call.input().readAllBytes();
        }
    }

    /** Closes the connection. */
    @Override
    public void close() {
        connection.close();
    }

    /** A new call with its deadline, the opcode already written. */
    private RxCall start(int opcode) throws IOException {
        RxCall call = connection.newCall();
        call.setDeadline(System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(CALL_DEADLINE_MS));
        new XdrWriter(call.output(), XdrSide.CLIENT).writeInt(opcode);
        return call;
    }

    private static String readStringReply(RxCall call) throws IOException {
        String value = new XdrReader(call.input(), XdrSide.CLIENT).readString(BOZO_BSSIZE);
        expectEnd(call, "string reply");
        return value;
    }

    /** rxgen replies carry exactly the OUT arguments: a byte more is an unmarshal error (−451). */
    private static void expectEnd(RxCall call, String what) throws IOException {
        int next = call.input().read();
        if (next != -1) {
            throw RxException.local(XdrSide.CLIENT.unmarshalCode(), what + ": bytes after the OUT arguments");
        }
    }
}
