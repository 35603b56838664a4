// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc.stream;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Flow;
import org.rx4j.engine.call.Call;
import org.rx4j.rpc.errors.RxCodes;
import org.rx4j.rpc.errors.RxException;
import org.rx4j.rpc.runtime.EndpointRuntime;
import org.rx4j.rpc.runtime.HandlerFailures;
import org.rx4j.rpc.xdr.XdrReader;
import org.rx4j.rpc.xdr.XdrSide;
import org.rx4j.rpc.xdr.XdrUnmarshaller;

/**
 * The receiving side of a call's non-blocking form ({@link org.rx4j.rpc.RxAsyncStreams}): the application's receives (a
 * publisher of the next n bytes, n bytes at once, the rest of the stream, one XDR item) are served one after another
 * on the event loop from the call's staged data ({@link CallStreams}). Data is taken only on demand, so a receiver
 * that asks for nothing leaves it staged; the inbox then stops pulling from the call at its limit and the call's
 * receive window closes (rx-wire-facts.md §5): the sender waits, nothing piles up. Loop only, except where a method
 * says otherwise.
 */
public final class FlowReceiver {
    /** Largest chunk handed to a subscriber, bytes (one staged buffer at most: a packet or a jumbogram's). */
    static final int MAX_CHUNK = 64 * 1024;

    private final CallStreams streams;
    private final EndpointRuntime rt;
    private final ArrayDeque<Op> ops = new ArrayDeque<>();
    /** Run once before the first receive (a client's request ends there, as OpenAFS's rx_Read does), or null. */
    private Runnable beforeFirst;
    private boolean draining;
    private boolean drainAgain;

    /**
     * @param streams the call's streams
     * @param rt the endpoint's shared parts
     * @param beforeFirst run on the loop before the first receive starts (a client ends its request), or null
     */
    public FlowReceiver(CallStreams streams, EndpointRuntime rt, Runnable beforeFirst) {
        this.streams = streams;
        this.rt = rt;
        this.beforeFirst = beforeFirst;
    }

    /** One queued receive. */
    private abstract static class Op {
        /** @return true when the op is over (completed or failed) and the next may start */
        abstract boolean step();
    }

    /**
     * Any thread: a publisher of the next {@code bytes} bytes of the peer's stream (after the receives queued
     * before), or of the rest of the stream for {@link Long#MAX_VALUE}.
     *
     * @param bytes how many bytes, ≥ 0
     * @return the publisher (one subscriber)
     */
    public Flow.Publisher<ByteBuffer> publisher(long bytes) {
        PublishOp op = new PublishOp(bytes);
        enqueue(op);
        return op;
    }

    /**
     * Any thread: the next {@code n} bytes at once, or the rest of the stream.
     *
     * @param n bytes wanted, or -1 for the rest of the stream
     * @return completed on the loop with the bytes
     */
    public CompletableFuture<byte[]> bytes(int n) {
        BytesOp op = new BytesOp(n);
        enqueue(op);
        return op.done;
    }

    /**
     * Any thread: one XDR item decoded from the next bytes; bytes after it stay for the next receive.
     *
     * @param decoder the item's decoder; it may run several times (again when more bytes arrived), so it must not
     *     act on what it reads: only build the value
     * @param side whose error codes the reader uses
     * @param <T> the item's type
     * @return completed on the loop with the item, exceptionally with the decoder's failure
     */
    public <T> CompletableFuture<T> xdr(XdrUnmarshaller<T> decoder, XdrSide side) {
        XdrOp<T> op = new XdrOp<>(decoder, side);
        enqueue(op);
        return op.done;
    }

    private void enqueue(Op op) {
        if (!rt.onLoop(e -> {
            ops.add(op);
            drain();
        })) {
            fail(op, RxException.local(RxCodes.RX_USER_ABORT, RxException.Reason.ENDPOINT_CLOSING,
                    "the endpoint is closed", null));
        }
    }

    private static void fail(Op op, Throwable t) {
        if (op instanceof BytesOp b) {
            b.done.completeExceptionally(t);
        } else if (op instanceof XdrOp<?> x) {
            x.done.completeExceptionally(t);
        } else if (op instanceof PublishOp p) {
            p.closeWith(t);
        }
    }

    /** Serves the queued receives from what is staged now. */
    void drain() {
        if (draining) {
            drainAgain = true;
            return;
        }
        draining = true;
        try {
            do {
                drainAgain = false;
                while (!ops.isEmpty()) {
                    if (beforeFirst != null) {
                        Runnable r = beforeFirst;
                        beforeFirst = null;
                        r.run();
                    }
                    if (!ops.peek().step()) {
                        break;
                    }
                    ops.poll();
                }
            } while (drainAgain);
        } finally {
            draining = false;
        }
    }

    /** Aborts the call with {@code code} on the application's behalf (a cancelled subscription, a bad request). */
    private void abortCall(int code) {
        Call c = streams.engineCall();
        if (c != null) {
            c.abort(rt.now(), code);
        } else {
            streams.abort(code);
        }
    }

    /** A publisher of the next bytes of the stream: one chunk per requested item, taken only while demand lasts. */
    private final class PublishOp extends Op implements Flow.Publisher<ByteBuffer>, Flow.Subscription {
        private final boolean toEnd;
        private long remaining;
        /** Loop only from here on. */
        private Flow.Subscriber<? super ByteBuffer> subscriber;
        private long demand;
        private boolean over;
        /** A failure that came before the subscriber (the endpoint closed), signalled once it subscribes. */
        private Throwable early;

        PublishOp(long bytes) {
            this.toEnd = bytes == Long.MAX_VALUE;
            this.remaining = bytes;
        }

        @Override
        public void subscribe(Flow.Subscriber<? super ByteBuffer> s) {
            java.util.Objects.requireNonNull(s, "subscriber");
            if (!rt.onLoop(e -> attach(s))) {
                s.onSubscribe(this);
                s.onError(RxException.local(RxCodes.RX_USER_ABORT, RxException.Reason.ENDPOINT_CLOSING,
                        "the endpoint is closed", null));
            }
        }

        private void attach(Flow.Subscriber<? super ByteBuffer> s) {
            if (subscriber != null) {
                s.onSubscribe(new Flow.Subscription() {
                    @Override
                    public void request(long n) {
                    }

                    @Override
                    public void cancel() {
                    }
                });
                s.onError(new IllegalStateException("this receive already has a subscriber"));
                return;
            }
            subscriber = s;
            s.onSubscribe(this);
            if (early != null) {
                closeWith(early);
                return;
            }
            drain();
        }

        @Override
        public void request(long n) {
            rt.onLoop(e -> {
                if (over) {
                    return;
                }
                if (n <= 0) {
                    abortCall(RxCodes.RX_USER_ABORT);
                    closeWith(new IllegalArgumentException("request(" + n + "): demand must be positive"));
                    return;
                }
                demand = demand + n < 0 ? Long.MAX_VALUE : demand + n;
                drain();
            });
        }

        @Override
        public void cancel() {
            rt.onLoop(e -> {
                if (!over) {
                    over = true;
                    abortCall(RxCodes.RX_USER_ABORT); // documented: a cancelled receive cancels the call
                    drain();
                }
            });
        }

        /** Ends the subscription with {@code t} (null: completes it). */
        void closeWith(Throwable t) {
            if (over) {
                return;
            }
            if (subscriber == null) {
                early = t;
                return;
            }
            over = true;
            if (t == null) {
                subscriber.onComplete();
            } else {
                subscriber.onError(t);
            }
        }

        @Override
        boolean step() {
            if (over) {
                return true;
            }
            if (subscriber == null) {
                return false;
            }
            while (demand > 0 && remaining > 0 && !over) {
                CallStreams.ReadState st;
                try {
                    st = streams.readState();
                } catch (RxException e) {
                    closeWith(e);
                    return true;
                }
                if (st == CallStreams.ReadState.WAIT) {
                    return false;
                }
                if (st == CallStreams.ReadState.END) {
                    closeWith(toEnd ? null : new EOFException("the peer's stream ended " + remaining
                            + " bytes early"));
                    return true;
                }
                byte[] b = streams.takeStaged((int) Math.min(remaining, MAX_CHUNK));
                if (!toEnd) {
                    remaining -= b.length;
                }
                demand--;
                subscriber.onNext(ByteBuffer.wrap(b));
            }
            if (remaining == 0) {
                closeWith(null);
            }
            return over;
        }
    }

    /** The next n bytes, or the rest of the stream (up to the endpoint's message limit), at once. */
    private final class BytesOp extends Op {
        final CompletableFuture<byte[]> done = new CompletableFuture<>();
        private final int wanted;
        private final ByteArrayOutputStream got = new ByteArrayOutputStream();

        BytesOp(int wanted) {
            this.wanted = wanted;
        }

        @Override
        boolean step() {
            while (wanted < 0 || got.size() < wanted) {
                CallStreams.ReadState st;
                try {
                    st = streams.readState();
                } catch (RxException e) {
                    done.completeExceptionally(e);
                    return true;
                }
                if (st == CallStreams.ReadState.WAIT) {
                    return false;
                }
                if (st == CallStreams.ReadState.END) {
                    if (wanted < 0) {
                        break;
                    }
                    done.completeExceptionally(new EOFException("the peer's stream ended "
                            + (wanted - got.size()) + " bytes early"));
                    return true;
                }
                int max = wanted < 0 ? MAX_CHUNK : Math.min(MAX_CHUNK, wanted - got.size());
                byte[] b = streams.takeStaged(max);
                got.write(b, 0, b.length);
                if (wanted < 0 && got.size() > rt.maxMessageBytes) {
                    abortCall(RxCodes.RX_MSGSIZE);
                    done.completeExceptionally(RxException.local(RxCodes.RX_MSGSIZE,
                            "the rest of the stream is larger than " + rt.maxMessageBytes + " bytes"));
                    return true;
                }
            }
            done.complete(got.toByteArray());
            return true;
        }
    }

    /** One XDR item: decoded again as bytes arrive, until it fits; what follows it is put back. */
    private final class XdrOp<T> extends Op {
        final CompletableFuture<T> done = new CompletableFuture<>();
        private final XdrUnmarshaller<T> decoder;
        private final XdrSide side;
        private byte[] buf = new byte[256];
        private int len;
        private boolean atEnd;

        XdrOp(XdrUnmarshaller<T> decoder, XdrSide side) {
            this.decoder = decoder;
            this.side = side;
        }

        @Override
        boolean step() {
            while (true) {
                if (len > 0 || atEnd) {
                    Attempt in = new Attempt();
                    try {
                        T value = decoder.unmarshal(new XdrReader(in, side));
                        if (in.pos < len) {
                            streams.unread(buf, in.pos, len - in.pos);
                        }
                        done.complete(value);
                        return true;
                    } catch (NeedMore more) {
                        // fall through: take more bytes
                    } catch (IOException | RuntimeException e) {
                        done.completeExceptionally(e);
                        return true;
                    }
                }
                CallStreams.ReadState st;
                try {
                    st = streams.readState();
                } catch (RxException e) {
                    done.completeExceptionally(e);
                    return true;
                }
                if (st == CallStreams.ReadState.WAIT) {
                    return false;
                }
                if (st == CallStreams.ReadState.END) {
                    atEnd = true; // decode once more: running out now is the decoder's EOF
                    continue;
                }
                byte[] b = streams.takeStaged(MAX_CHUNK);
                if (len + b.length > rt.maxMessageBytes) {
                    abortCall(RxCodes.RX_MSGSIZE);
                    done.completeExceptionally(RxException.local(RxCodes.RX_MSGSIZE,
                            "an XDR item larger than " + rt.maxMessageBytes + " bytes"));
                    return true;
                }
                if (len + b.length > buf.length) {
                    buf = java.util.Arrays.copyOf(buf, Math.max(2 * buf.length, len + b.length));
                }
                System.arraycopy(b, 0, buf, len, b.length);
                len += b.length;
            }
        }

        /** The bytes gathered so far; running out before the stream's end asks for more. */
        private final class Attempt extends InputStream {
            int pos;

            @Override
            public int read() throws IOException {
                if (pos < len) {
                    return buf[pos++] & 0xFF;
                }
                return end();
            }

            @Override
            public int read(byte[] b, int off, int n) throws IOException {
                if (n == 0) {
                    return 0;
                }
                if (pos >= len) {
                    return end();
                }
                int k = Math.min(n, len - pos);
                System.arraycopy(buf, pos, b, off, k);
                pos += k;
                return k;
            }

            private int end() throws NeedMore {
                if (atEnd) {
                    return -1;
                }
                throw new NeedMore();
            }
        }
    }

    /** Thrown inside a decode attempt that ran out of bytes before the stream's end. */
    private static final class NeedMore extends IOException {
        private static final long serialVersionUID = 1L;

        NeedMore() {
            super("needs more bytes");
        }

        @Override
        public synchronized Throwable fillInStackTrace() {
            return this; // control flow, not a failure: no stack to record
        }
    }
}
