// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.concurrent.CompletableFuture;
import org.rx4j.rpc.channel.RxConnectionPool;
import org.rx4j.rpc.channel.RxRetryPolicy;
import org.rx4j.rpc.errors.RxException;
import org.rx4j.rpc.xdr.XdrMarshaller;
import org.rx4j.rpc.xdr.XdrUnmarshaller;
import org.rx4j.security.SecurityClass;

/**
 * Where client calls to one (server, service id, security class) go: a single {@link RxConnection} (4 calls at once,
 * its channels) or an {@link RxConnectionPool} (more connections as calls need them). Generated clients and
 * {@code UbikClient} take one, so the same stub runs on either. The call forms and their errors are those of
 * {@link RxConnection} (docs/embedding.md "Call forms"); thread-safe.
 *
 * <p>One idea, one form: each call form takes an {@link RxCallOptions} (deadline, opcode); the forms without it are
 * default methods passing {@link RxCallOptions#DEFAULT}. An implementation writes the four forms with options
 * ({@link #newCall(RxCallOptions)}, {@link #callAsync(byte[], RxCallOptions)},
 * {@link #call(int, XdrMarshaller, XdrUnmarshaller, RxCallOptions)},
 * {@link #callAsync(int, XdrMarshaller, XdrUnmarshaller, RxCallOptions)}) and the three accessors and close.
 */
public interface RxCallTarget extends AutoCloseable {
    /** @return the server's address */
    InetSocketAddress server();

    /** @return the service id calls go to, 1..65535 */
    int serviceId();

    /** @return the security class the calls use */
    SecurityClass securityClass();

    /**
     * Starts a streaming call without deadline or opcode; see {@link #newCall(RxCallOptions)}.
     *
     * @return the call (close it)
     * @throws RxException as {@link #newCall(RxCallOptions)}
     */
    default RxCall newCall() throws RxException {
        return newCall(RxCallOptions.DEFAULT);
    }

    /**
     * Starts a streaming call; see {@link RxConnection#newCall(RxCallOptions)}. With an opcode in the options, it is
     * already written as the request's first XDR int: write the arguments next. Never repeated by a pool.
     *
     * @param options deadline and opcode
     * @return the call (close it)
     * @throws RxException RX_INVALID_OPERATION (−2) if the target was closed or the endpoint is closing
     */
    RxCall newCall(RxCallOptions options) throws RxException;

    /**
     * Sends a whole request and returns the whole reply, blocking, over {@link #newCall()}'s streams.
     *
     * @param request request bytes
     * @return reply bytes
     * @throws RxException with the abort code if the call fails
     * @throws IOException on interruption
     */
    default byte[] call(byte[] request) throws IOException {
        try (RxCall call = newCall()) {
            call.output().write(request);
            call.output().close();
            return call.input().readAllBytes();
        }
    }

    /**
     * As {@link #callAsync(byte[], RxCallOptions)} with {@link RxCallOptions#DEFAULT}.
     *
     * @param request the whole request (not copied: must not change until the future completes)
     * @return the reply; exceptionally an {@link RxException} with the abort code
     */
    default CompletableFuture<byte[]> callAsync(byte[] request) {
        return callAsync(request, RxCallOptions.DEFAULT);
    }

    /**
     * Sends a whole request and completes the future with the whole reply; see
     * {@link RxConnection#callAsync(byte[], RxCallOptions)}. Never repeated by a pool.
     *
     * @param request the whole request (not copied: must not change until the future completes); with an opcode
     *     in the options, what follows it
     * @param options deadline and opcode
     * @return the reply; exceptionally an {@link RxException} with the abort code
     */
    CompletableFuture<byte[]> callAsync(byte[] request, RxCallOptions options);

    /**
     * As {@link #call(int, XdrMarshaller, XdrUnmarshaller, RxCallOptions)} with {@link RxCallOptions#DEFAULT}.
     *
     * @param opcode the operation
     * @param arguments writes the arguments
     * @param results reads the results
     * @param <T> the result type
     * @return what {@code results} returned
     * @throws RxException with the abort code
     * @throws IOException if interrupted
     */
    default <T> T call(int opcode, XdrMarshaller arguments, XdrUnmarshaller<T> results) throws IOException {
        return call(opcode, arguments, results, RxCallOptions.DEFAULT);
    }

    /**
     * One rxgen-style call, blocking; see {@link RxConnection#call(int, XdrMarshaller, XdrUnmarshaller,
     * RxCallOptions)}. A pool may repeat it when its {@link RxRetryPolicy} marks the opcode idempotent, so
     * {@code arguments} may run more than once; a deadline then covers every attempt.
     *
     * @param opcode the operation
     * @param arguments writes the arguments
     * @param results reads the results
     * @param options the deadline (an opcode in them is refused: it is the first argument)
     * @param <T> the result type
     * @return what {@code results} returned
     * @throws RxException with the abort code (−3 when the deadline passed)
     * @throws IOException if interrupted
     * @throws IllegalArgumentException if the options carry an opcode
     */
    <T> T call(int opcode, XdrMarshaller arguments, XdrUnmarshaller<T> results, RxCallOptions options)
            throws IOException;

    /**
     * As {@link #callAsync(int, XdrMarshaller, XdrUnmarshaller, RxCallOptions)} with {@link RxCallOptions#DEFAULT}.
     *
     * @param opcode the operation
     * @param arguments writes the arguments
     * @param results reads the results from the whole reply
     * @param <T> the result type
     * @return the results' future; exceptionally an {@link RxException} with the abort code
     */
    default <T> CompletableFuture<T> callAsync(int opcode, XdrMarshaller arguments, XdrUnmarshaller<T> results) {
        return callAsync(opcode, arguments, results, RxCallOptions.DEFAULT);
    }

    /**
     * One rxgen-style call without blocking; see
     * {@link RxConnection#callAsync(int, XdrMarshaller, XdrUnmarshaller, RxCallOptions)}; repeated by a pool as the
     * blocking form is.
     *
     * @param opcode the operation
     * @param arguments writes the arguments (may run more than once, as for the blocking form)
     * @param results reads the results from the whole reply
     * @param options the deadline (an opcode in them is refused: it is the first argument)
     * @param <T> the result type
     * @return the results' future; exceptionally an {@link RxException} with the abort code
     * @throws IllegalArgumentException if the options carry an opcode
     */
    <T> CompletableFuture<T> callAsync(int opcode, XdrMarshaller arguments, XdrUnmarshaller<T> results,
                                       RxCallOptions options);

    /** Closes the target: its connections' unfinished calls are aborted with RX_USER_ABORT (−6). Returns at once. */
    @Override
    void close();
}
