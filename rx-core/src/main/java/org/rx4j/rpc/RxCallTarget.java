// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.rx4j.rpc.xdr.XdrMarshaller;
import org.rx4j.rpc.xdr.XdrUnmarshaller;
import org.rx4j.security.SecurityClass;

/**
 * Where client calls to one (server, service id, security class) go: a single {@link RxConnection} (4 calls at once,
 * its channels) or an {@link RxConnectionPool} (more connections as calls need them). Generated clients and
 * {@code UbikClient} take one, so the same stub runs on either. The call forms and their errors are those of
 * {@link RxConnection} (docs/embedding.md "Call forms"); thread-safe.
 */
public interface RxCallTarget extends AutoCloseable {
    /** @return the server's address */
    InetSocketAddress server();

    /** @return the service id calls go to, 1..65535 */
    int serviceId();

    /** @return the security class the calls use */
    SecurityClass securityClass();

    /**
     * Starts a streaming call; see {@link RxConnection#newCall()}.
     *
     * @return the call (close it)
     * @throws RxException RX_INVALID_OPERATION (−2) if the target was closed or the endpoint is closing
     */
    RxCall newCall() throws RxException;

    /**
     * Starts a streaming call with a hard deadline; see {@link RxConnection#newCall(Duration)}.
     *
     * @param timeout the call's whole life, from now, positive
     * @return the call (close it)
     * @throws RxException as {@link #newCall()}
     * @throws IllegalArgumentException if timeout is not positive
     */
    RxCall newCall(Duration timeout) throws RxException;

    /**
     * Starts a streaming call to one procedure, its opcode already written; see {@link RxConnection#newCall(int)}.
     *
     * @param opcode the procedure's opcode
     * @return the call (close it)
     * @throws RxException as {@link #newCall()}
     */
    RxCall newCall(int opcode) throws RxException;

    /**
     * As {@link #newCall(int)} with a hard deadline; see {@link RxConnection#newCall(int, Duration)}.
     *
     * @param opcode the procedure's opcode
     * @param timeout the call's whole life, from now, positive
     * @return the call (close it)
     * @throws RxException as {@link #newCall()}
     * @throws IllegalArgumentException if timeout is not positive
     */
    RxCall newCall(int opcode, Duration timeout) throws RxException;

    /**
     * Sends a whole request and returns the whole reply, blocking; see {@link RxConnection#call(byte[])}.
     *
     * @param request request bytes
     * @return reply bytes
     * @throws RxException with the abort code if the call fails
     * @throws IOException on interruption
     */
    byte[] call(byte[] request) throws IOException;

    /**
     * Sends a whole request and completes the future with the whole reply; see {@link RxConnection#callAsync(byte[])}.
     *
     * @param request the whole request (not copied: must not change until the future completes)
     * @return the reply; exceptionally an {@link RxException} with the abort code
     */
    CompletableFuture<byte[]> callAsync(byte[] request);

    /**
     * As {@link #callAsync(byte[])} with a hard deadline; see {@link RxConnection#callAsync(byte[], Duration)}.
     *
     * @param request the whole request
     * @param timeout the call's whole life, from now, positive
     * @return the reply future
     * @throws IllegalArgumentException if timeout is not positive
     */
    CompletableFuture<byte[]> callAsync(byte[] request, Duration timeout);

    /**
     * One rxgen-style call, blocking; see {@link RxConnection#call(int, XdrMarshaller, XdrUnmarshaller)}. A pool
     * may repeat it when its {@link RxRetryPolicy} marks the opcode idempotent, so {@code arguments} may run more
     * than once.
     *
     * @param opcode the operation
     * @param arguments writes the arguments
     * @param results reads the results
     * @param <T> the result type
     * @return what {@code results} returned
     * @throws RxException with the abort code
     * @throws IOException if interrupted
     */
    <T> T call(int opcode, XdrMarshaller arguments, XdrUnmarshaller<T> results) throws IOException;

    /**
     * As {@link #call(int, XdrMarshaller, XdrUnmarshaller)} with a hard deadline (over all attempts, for a pool
     * that repeats an idempotent call).
     *
     * @param opcode the operation
     * @param arguments writes the arguments
     * @param results reads the results
     * @param timeout the call's whole life, from now, positive
     * @param <T> the result type
     * @return what {@code results} returned
     * @throws RxException with the abort code (−3 when the deadline passed)
     * @throws IOException if interrupted
     * @throws IllegalArgumentException if timeout is not positive
     */
    <T> T call(int opcode, XdrMarshaller arguments, XdrUnmarshaller<T> results, Duration timeout) throws IOException;

    /**
     * One rxgen-style call without blocking; see {@link RxConnection#callAsync(int, XdrMarshaller, XdrUnmarshaller)}.
     *
     * @param opcode the operation
     * @param arguments writes the arguments (may run more than once, as for the blocking form)
     * @param results reads the results from the whole reply
     * @param <T> the result type
     * @return the results' future; exceptionally an {@link RxException} with the abort code
     */
    <T> CompletableFuture<T> callAsync(int opcode, XdrMarshaller arguments, XdrUnmarshaller<T> results);

    /**
     * As {@link #callAsync(int, XdrMarshaller, XdrUnmarshaller)} with a hard deadline (over all attempts).
     *
     * @param opcode the operation
     * @param arguments writes the arguments
     * @param results reads the results from the whole reply
     * @param timeout the call's whole life, from now, positive
     * @param <T> the result type
     * @return the results' future; exceptionally an {@link RxException} with the abort code
     * @throws IllegalArgumentException if timeout is not positive
     */
    <T> CompletableFuture<T> callAsync(int opcode, XdrMarshaller arguments, XdrUnmarshaller<T> results,
                                       Duration timeout);

    /** Closes the target: its connections' unfinished calls are aborted with RX_USER_ABORT (−6). Returns at once. */
    @Override
    void close();
}
