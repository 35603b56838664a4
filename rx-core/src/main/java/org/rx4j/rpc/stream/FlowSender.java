// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc.stream;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Flow;
import org.rx4j.engine.call.Call;
import org.rx4j.rpc.errors.RxCodes;
import org.rx4j.rpc.errors.RxException;
import org.rx4j.rpc.runtime.EndpointRuntime;
import org.rx4j.rpc.runtime.HandlerFailures;

/**
 * The sending side of a call's non-blocking form ({@link org.rx4j.rpc.RxAsyncStreams}): the application's sends (whole arrays,
 * publishers of chunks, the end of the stream) run one after another on the event loop, each writing while the
 * call's send buffer has room ({@link Call#isWritable()}, 2 × twind packets, rx-wire-facts.md §5). A publisher is
 * asked for one chunk at a time and only while there is room, so a slow receiver stops it through the window and
 * nothing piles up here. Loop only, except where a method says otherwise.
 */
public final class FlowSender {
    private final CallStreams streams;
    private final EndpointRuntime rt;
    private final boolean server;
    private final ArrayDeque<Op> ops = new ArrayDeque<>();
    /** Set while {@link #pump()} runs: a publisher answering a request at once re-enters through onLoop. */
    private boolean pumping;
    private boolean pumpAgain;
    /** The first bytes of a client's request tell its meter the opcode, when the options did not. */
    private boolean firstBytes = true;
    /** The end of the stream is queued. Loop only. */
    private boolean finishQueued;

    /**
     * @param streams the call's streams
     * @param rt the endpoint's shared parts
     * @param server true on a server call (finishing ends the reply's duration)
     */
    public FlowSender(CallStreams streams, EndpointRuntime rt, boolean server) {
        this.streams = streams;
        this.rt = rt;
        this.server = server;
    }

    /** One queued send: it writes while the call takes more and says when it is done. */
    private abstract static class Op {
        final CompletableFuture<Void> done = new CompletableFuture<>();

        /** @return true when the op handed everything to the call */
        abstract boolean pump(Call c, long now);

        /** The call ended (or failed) before the op finished. */
        void abandon(Throwable why) {
            done.completeExceptionally(why);
        }
    }

    /**
     * Any thread: queues {@code bytes} after the sends queued before.
     *
     * @param bytes the bytes (not copied: must not change until the future completes)
     * @return completed once every byte was handed to the call
     */
    public CompletableFuture<Void> send(byte[] bytes) {
        return enqueue(new BytesOp(bytes));
    }

    /**
     * Any thread: queues a publisher's chunks after the sends queued before; the publisher is subscribed when its
     * turn comes.
     *
     * @param data the chunks
     * @return completed once the publisher completed and its last chunk was handed to the call
     */
    public CompletableFuture<Void> send(Flow.Publisher<ByteBuffer> data) {
        return enqueue(new PublisherOp(data));
    }

    /**
     * Any thread: queues the end of this side's stream (LAST_PACKET) after the sends queued before.
     *
     * @return completed once the end was handed to the call
     */
    public CompletableFuture<Void> finish() {
        return enqueue(new FinishOp());
    }

    /** Loop only: queues the end of the stream unless it was queued already (a client's first receive). */
    public void finishOnce() {
        if (!finishQueued) {
            finishQueued = true;
            ops.add(new FinishOp());
            pump();
        }
    }

    private CompletableFuture<Void> enqueue(Op op) {
        if (!rt.onLoop(e -> {
            finishQueued |= op instanceof FinishOp;
            ops.add(op);
            pump();
        })) {
            op.done.completeExceptionally(RxException.local(RxCodes.RX_USER_ABORT,
                    RxException.Reason.ENDPOINT_CLOSING, "the endpoint is closed", null));
        }
        return op.done;
    }

    /** Writes what the call takes now; fails every queued send once the call has ended or failed. */
    void pump() {
        if (pumping) {
            pumpAgain = true;
            return;
        }
        pumping = true;
        try {
            do {
                pumpAgain = false;
                pumpOnce();
            } while (pumpAgain);
        } finally {
            pumping = false;
        }
    }

    private void pumpOnce() {
        while (!ops.isEmpty()) {
            Call c = streams.engineCall();
            if (c == null || c.isDone()) {
                if (c == null && !streams.isDone()) {
                    return; // not created yet: the attach wakes this again
                }
                failAll();
                return;
            }
            Op op = ops.peek();
            if (!op.pump(c, rt.now())) {
                return;
            }
            ops.poll();
            op.done.complete(null);
        }
    }

    private void failAll() {
        Throwable why = streams.isDone() ? streams.failureOrEnded()
                : RxException.local(RxCodes.RX_USER_ABORT, "the call ended");
        while (!ops.isEmpty()) {
            ops.poll().abandon(why);
        }
    }

    /** Writes a chunk the application gave; the first bytes of a client's request tell its meter the opcode. */
    private void write(Call c, long now, byte[] bytes, int off, int len) {
        if (firstBytes && !server) {
            streams.requestBytes(off == 0 ? bytes : java.util.Arrays.copyOfRange(bytes, off, off + len), len);
        }
        firstBytes = false;
        ByteBuf b = Unpooled.wrappedBuffer(bytes, off, len);
        c.write(now, b);
    }

    /** A whole array, in chunks of {@link CallStreams#CHUNK} bytes while the call is writable. */
    private final class BytesOp extends Op {
        private final byte[] bytes;
        private int off;

        BytesOp(byte[] bytes) {
            this.bytes = bytes;
        }

        @Override
        boolean pump(Call c, long now) {
            while (off < bytes.length && c.isWritable()) {
                int n = Math.min(CallStreams.CHUNK, bytes.length - off);
                write(c, now, bytes, off, n);
                off += n;
            }
            return off == bytes.length;
        }
    }

    /** The end of the stream. */
    private final class FinishOp extends Op {
        @Override
        boolean pump(Call c, long now) {
            c.finishSending(now);
            if (server) {
                streams.replyComplete(now);
            }
            return true;
        }
    }

    /**
     * A publisher's chunks: one requested at a time, and only while the call is writable. Its signals may come on
     * any thread; each chunk is copied where it arrives (the publisher may reuse the buffer once onNext returns) and
     * written on the loop.
     */
    private final class PublisherOp extends Op implements Flow.Subscriber<ByteBuffer> {
        private final Flow.Publisher<ByteBuffer> publisher;
        /** Loop only. */
        private boolean subscribed;
        private Flow.Subscription subscription;
        /** A chunk was requested and has not arrived. Loop only. */
        private boolean requested;
        /** The publisher completed; the op ends once its last chunk was written. Loop only. */
        private boolean completed;
        /** Chunks that arrived and wait for room (at most the one requested, unless the publisher sends more). */
        private final ArrayDeque<byte[]> arrived = new ArrayDeque<>();

        PublisherOp(Flow.Publisher<ByteBuffer> publisher) {
            this.publisher = publisher;
        }

        @Override
        boolean pump(Call c, long now) {
            if (!subscribed) {
                subscribed = true;
                try {
                    publisher.subscribe(this);
                } catch (RuntimeException e) {
                    failCall(e);
                    return false;
                }
            }
            while (!arrived.isEmpty() && c.isWritable()) {
                byte[] b = arrived.poll();
                if (b.length > 0) {
                    write(c, now, b, 0, b.length);
                }
            }
            if (!arrived.isEmpty() || !c.isWritable()) {
                return false;
            }
            if (completed) {
                return true;
            }
            if (subscription != null && !requested) {
                requested = true;
                subscription.request(1);
            }
            return false;
        }

        @Override
        void abandon(Throwable why) {
            super.abandon(why);
            arrived.clear();
            Flow.Subscription s = subscription;
            if (s != null) {
                s.cancel();
            }
        }

        @Override
        public void onSubscribe(Flow.Subscription s) {
            rt.onLoop(e -> {
                if (subscription != null || done.isDone()) {
                    s.cancel();
                    return;
                }
                subscription = s;
                FlowSender.this.pump();
            });
        }

        @Override
        public void onNext(ByteBuffer item) {
            byte[] copy = new byte[item.remaining()];
            item.get(copy);
            rt.onLoop(e -> {
                if (done.isDone()) {
                    return;
                }
                requested = false;
                arrived.add(copy);
                FlowSender.this.pump();
            });
        }

        @Override
        public void onError(Throwable t) {
            rt.onLoop(e -> {
                if (!done.isDone()) {
                    failCall(t);
                }
            });
        }

        @Override
        public void onComplete() {
            rt.onLoop(e -> {
                completed = true;
                FlowSender.this.pump();
            });
        }

        /** The publisher failed: the call is aborted with the code its failure maps to. */
        private void failCall(Throwable t) {
            Call c = streams.engineCall();
            if (c != null) {
                c.abort(rt.now(), HandlerFailures.abortCode(t));
            }
            done.completeExceptionally(t);
            ops.remove(this);
            FlowSender.this.pump();
        }
    }
}
