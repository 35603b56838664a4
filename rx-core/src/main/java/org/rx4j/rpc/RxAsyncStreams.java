// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.Flow;
import org.rx4j.rpc.errors.RxException;
import org.rx4j.rpc.runtime.ApiAccess;
import org.rx4j.rpc.runtime.EndpointRuntime;
import org.rx4j.rpc.runtime.HandlerFailures;
import org.rx4j.rpc.stream.CallStreams;
import org.rx4j.rpc.stream.FlowReceiver;
import org.rx4j.rpc.stream.FlowSender;
import org.rx4j.rpc.xdr.XdrSide;
import org.rx4j.rpc.xdr.XdrUnmarshaller;

/**
 * One call's data streams without a waiting thread (docs/embedding.md "Async streams"): this side's data is sent
 * from arrays or a {@link Flow.Publisher} of chunks, the peer's data is received as a publisher of the next n bytes,
 * as arrays or as XDR items. For bulk data (rxgen's split procs, docs/rxgen.md) on a server's
 * {@link RxStreamHandler} or a client's call ({@link RxCall#async()}).
 *
 * <p>Order: sends run one after another in the order they were made, as do receives (a receive's publisher takes
 * its place in the order when it is made, and what follows waits until it has delivered its bytes: subscribe to it).
 * On a client the first receive ends the request (LAST_PACKET) after the sends made before it, as OpenAFS's
 * {@code rx_Read} does.
 *
 * <p>Flow control (rx-wire-facts.md §5): a sent publisher is asked for one chunk at a time, and only while the
 * call's send buffer has room (2 × twind packets): a slow peer stops it through the window. A receive takes data
 * only as its subscriber requests it; what the subscriber has not asked for stays staged (at most 512 KiB) and
 * beyond that in the call's receive queue, whose window then closes, so the peer stops sending. Memory held per call
 * stays a few windows whatever the transfer's size.
 *
 * <p>Threading: methods may be called from any thread and never block. Subscribers' signals ({@code onSubscribe},
 * {@code onNext}, ...) and the futures' completions run <b>on the endpoint's event loop</b>: they must not block
 * (hand longer work to an executor, and request more when it is done). A sent publisher may signal on any thread.
 *
 * <p>Ownership: each received {@link ByteBuffer} is a fresh heap copy the subscriber owns; each sent chunk is copied
 * when it arrives, so the publisher may reuse its buffer once {@code onNext} returns; arrays given to
 * {@link #send(byte[])} are not copied and must not change until its future completes. No pooled buffer ever
 * reaches the application.
 *
 * <p>Ending: a call fails as {@link RxCall} says (the peer's abort, a deadline, a dead peer, this endpoint's close);
 * pending sends and receives then fail with its {@link RxException}, a sent publisher's subscription is cancelled.
 * Cancelling a receive's subscription, or a sent publisher's {@code onError}, aborts the call: RX_USER_ABORT (−6) for
 * a cancel, else the code {@link RxException} / timeout / cancellation map to (−3, −6; −2 otherwise). Buffers are
 * released when the call ends; nothing needs closing.
 */
public final class RxAsyncStreams {
    private final RxCall call;
    private final CallStreams streams;
    private final FlowSender sender;
    private final FlowReceiver receiver;

    private RxAsyncStreams(RxCall call, FlowSender sender, FlowReceiver receiver) {
        this.call = call;
        this.streams = ApiAccess.api().streams(call);
        this.sender = sender;
        this.receiver = receiver;
    }

    /**
     * Switches {@code call} to this form. Bytes already written to its output (a client's opcode) are sent first.
     *
     * @param call the call, whose blocking streams are not used afterwards
     * @return the call's async streams
     * @throws IOException the call's failure, if it has already failed
     */
    static RxAsyncStreams of(RxCall call) throws IOException {
        CallStreams s = ApiAccess.api().streams(call);
        EndpointRuntime rt = s.runtime();
        FlowSender sender = new FlowSender(s, rt, call.isServer());
        FlowReceiver receiver = new FlowReceiver(s, rt, call.isServer() ? null : sender::finishOnce);
        s.useFlows(sender, receiver);
        return new RxAsyncStreams(call, sender, receiver);
    }

    /**
     * @return the call: its peer, identity, cancellation context, deadline, {@link RxCall#abort abort} and
     *     {@link RxCall#completion() completion} (its blocking streams must not be used)
     */
    public RxCall call() {
        return call;
    }

    /**
     * Sends {@code bytes} after the sends made before.
     *
     * @param bytes the bytes (not copied: must not change until the future completes)
     * @return completed (on the event loop) once every byte was handed to the call; exceptionally with the call's
     *     {@link RxException} if it ended first
     */
    public CompletableFuture<Void> send(byte[] bytes) {
        return sender.send(Objects.requireNonNull(bytes, "bytes"));
    }

    /**
     * Sends the chunks {@code data} publishes, after the sends made before: it is subscribed when its turn comes and
     * asked for one chunk at a time while the call's send window has room. Chunks may be of any size (each is copied
     * whole into the call, so keep them to a few packets, e.g. 16–64 KiB).
     *
     * @param data the chunks; its {@code onError} aborts the call (the code its failure maps to)
     * @return completed (on the event loop) once {@code data} completed and its last chunk was handed to the call;
     *     exceptionally with the call's {@link RxException} if it ended first (the subscription is cancelled)
     */
    public CompletableFuture<Void> send(Flow.Publisher<ByteBuffer> data) {
        return sender.send(Objects.requireNonNull(data, "data"));
    }

    /**
     * Ends this side's stream (LAST_PACKET) after the sends made before. A server's reply ends by itself when its
     * {@link RxStreamHandler}'s stage completes; a client's request when its first receive starts.
     *
     * @return completed (on the event loop) once the end was handed to the call
     */
    public CompletableFuture<Void> finish() {
        return sender.finish();
    }

    /**
     * The next {@code bytes} bytes of the peer's stream, after the receives made before, as a publisher of chunks
     * (at most 64 KiB each, one per requested item, heap copies the subscriber owns). It completes after exactly
     * {@code bytes} bytes; fails with an {@link java.io.EOFException} if the peer's stream ends first, or with the
     * call's {@link RxException}. Cancelling the subscription aborts the call with RX_USER_ABORT (−6).
     *
     * @param bytes how many bytes, ≥ 0
     * @return a publisher for one subscriber (a second gets {@code onError})
     * @throws IllegalArgumentException if bytes is negative
     */
    public Flow.Publisher<ByteBuffer> receive(long bytes) {
        if (bytes < 0) {
            throw new IllegalArgumentException("bytes must be >= 0: " + bytes);
        }
        return receiver.publisher(bytes);
    }

    /**
     * As {@link #receive(long)} for the rest of the peer's stream: completes at its end.
     *
     * @return a publisher for one subscriber
     */
    public Flow.Publisher<ByteBuffer> receiveAll() {
        return receiver.publisher(Long.MAX_VALUE);
    }

    /**
     * The next {@code n} bytes of the peer's stream at once (for small parts, e.g. a length before bulk data).
     *
     * @param n how many bytes, 0..the endpoint's {@code maxMessageBytes}
     * @return completed (on the event loop) with exactly n bytes; exceptionally with an {@link java.io.EOFException}
     *     if the stream ends first, or with the call's {@link RxException}
     * @throws IllegalArgumentException if n is out of range
     */
    public CompletableFuture<byte[]> receiveBytes(int n) {
        if (n < 0 || n > streams.runtime().maxMessageBytes) {
            throw new IllegalArgumentException("n must be 0.." + streams.runtime().maxMessageBytes + ": " + n);
        }
        return receiver.bytes(n);
    }

    /**
     * The rest of the peer's stream at once (e.g. the OUT results after bulk data).
     *
     * @return completed (on the event loop) with the bytes; exceptionally with RX_MSGSIZE (−8, the call aborted) when
     *     they pass the endpoint's {@code maxMessageBytes}, or with the call's {@link RxException}
     */
    public CompletableFuture<byte[]> receiveRest() {
        return receiver.bytes(-1);
    }

    /**
     * One XDR item (RFC 4506) decoded from the next bytes of the peer's stream; the bytes after it stay for the next
     * receive. For arguments before bulk data: their length is not known before they are decoded.
     *
     * @param decoder reads the item; it may run several times, from the item's start, as more bytes arrive, so it
     *     must only build the value (a hostile length fails at once: the reader checks bounds before allocating)
     * @param <T> the item's type
     * @return completed (on the event loop) with the item; exceptionally with the decoder's failure (an
     *     {@link RxException} with the unmarshal code of this side, −451 on a client, −453 on a server, for bytes
     *     that are no such item), RX_MSGSIZE (−8, the call aborted) for an item over {@code maxMessageBytes}, or the
     *     call's {@link RxException}
     */
    public <T> CompletableFuture<T> receiveXdr(XdrUnmarshaller<T> decoder) {
        return receiver.xdr(Objects.requireNonNull(decoder, "decoder"),
                call.isServer() ? XdrSide.SERVER : XdrSide.CLIENT);
    }

    /**
     * Ends the call when {@code f} fails before the call has ended: an application's future built on this call
     * (e.g. a generated split proc's results) then behaves as {@code callAsync}'s: {@code orTimeout} aborts the call
     * with RX_CALL_TIMEOUT (−3), {@code cancel} with RX_USER_ABORT (−6), an {@link RxException} with its code,
     * anything else with RX_INVALID_OPERATION (−2).
     *
     * @param f the future
     * @param <T> its value's type
     * @return {@code f}
     */
    public <T> CompletableFuture<T> abortOnFailure(CompletableFuture<T> f) {
        f.whenComplete((v, t) -> {
            if (t != null && !streams.isDone()) {
                call.abort(HandlerFailures.abortCode(t));
            }
        });
        return f;
    }

    /**
     * @return the endpoint's callback executor ({@link RxEndpoint.Builder#callbackExecutor}), where an application
     *     moves completions that must not run on the event loop
     */
    public Executor callbackExecutor() {
        EndpointRuntime rt = streams.runtime();
        return rt::callback;
    }
}
