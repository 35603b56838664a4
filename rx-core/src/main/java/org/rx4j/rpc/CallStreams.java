package org.rx4j.rpc;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.util.ArrayDeque;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.rx4j.engine.Call;
import org.rx4j.engine.CallListener;
import org.rx4j.transport.RxTransport;
import org.rx4j.wire.AbortCodes;

/**
 * Bridges one engine {@link Call} (owned by the event loop) to blocking streams used by an application
 * thread (design.md "transport": application threads hand work to the loop; no shared mutable state
 * but this object's monitor). Flow control both ways: a writer blocks while the call's send buffer is
 * full (2 × twind packets, rx-wire-facts.md §5); the loop pulls received data only while fewer than
 * {@link #INBOX_LIMIT} bytes wait for the reader, so a slow reader closes the receive window.
 */
final class CallStreams implements CallListener {
    /** Bytes the loop may stage for a reader before it stops pulling from the call. */
    static final int INBOX_LIMIT = 512 * 1024;
    /** Bytes an application write is gathered into before it is handed to the loop. */
    static final int CHUNK = 32 * 1412;

    private final RxTransport transport;
    private Call call;
    private final Object lock = new Object();
    private final ArrayDeque<ByteBuf> inbox = new ArrayDeque<>();
    private int inboxBytes;
    private boolean eof;
    private boolean done;
    private int error;
    private boolean remote;
    private boolean loopWritable = true;
    private int pendingWrites;
    private boolean pullScheduled;
    private final CompletableFuture<Void> completion = new CompletableFuture<>();
    private final Output output = new Output();
    private final Input input = new Input();
    private long deadlineNs;

    CallStreams(RxTransport transport) {
        this.transport = transport;
    }

    void attach(Call c) {
        this.call = c;
    }

    Call call() {
        return call;
    }

    OutputStream output() {
        return output;
    }

    InputStream input() {
        return input;
    }

    CompletableFuture<Void> completion() {
        return completion;
    }

    void setDeadline(long deadlineNs) {
        this.deadlineNs = deadlineNs;
    }

    // ---- loop side (CallListener)

    @Override
    public void onReadable(Call c) {
        pull(c);
    }

    private void pull(Call c) {
        long now = transport.now();
        while (true) {
            synchronized (lock) {
                if (inboxBytes >= INBOX_LIMIT) {
                    return;
                }
            }
            ByteBuf b = c.read(now);
            if (b == null) {
                break;
            }
            synchronized (lock) {
                inbox.add(b);
                inboxBytes += b.readableBytes();
                lock.notifyAll();
            }
        }
        if (c.isReadComplete()) {
            synchronized (lock) {
                eof = true;
                lock.notifyAll();
            }
        }
    }

    @Override
    public void onWritable(Call c) {
        synchronized (lock) {
            loopWritable = true;
            lock.notifyAll();
        }
    }

    @Override
    public void onComplete(Call c, int errorCode) {
        if (errorCode == 0) {
            pull(c);
        }
        synchronized (lock) {
            done = true;
            error = errorCode;
            remote = c.isRemoteError();
            if (errorCode == 0) {
                eof = true;
            }
            lock.notifyAll();
        }
        if (errorCode == 0) {
            completion.complete(null);
        } else {
            completion.completeExceptionally(exception());
        }
    }

    private RxException exception() {
        return remote ? RxException.remote(error) : RxException.local(error, null);
    }

    // ---- application side

    private void await() throws IOException {
        try {
            if (deadlineNs != 0) {
                long left = deadlineNs - System.nanoTime();
                if (left <= 0) {
                    abort(AbortCodes.RX_CALL_TIMEOUT);
                    throw RxException.local(AbortCodes.RX_CALL_TIMEOUT, "call deadline passed");
                }
                TimeUnit.NANOSECONDS.timedWait(lock, left);
            } else {
                lock.wait();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted waiting for the call");
        }
    }

    void abort(int code) {
        transport.execute(e -> {
            if (call != null) {
                call.abort(transport.now(), code);
            }
        });
    }

    private void checkFailed() throws RxException {
        if (done && error != 0) {
            throw exception();
        }
    }

    private void submitWrite(ByteBuf buf, boolean finish) throws IOException {
        synchronized (lock) {
            while (!done && (!loopWritable || pendingWrites > 1)) {
                await();
            }
            if (done) {
                buf.release();
                checkFailed();
                throw new IOException("call already finished");
            }
            pendingWrites++;
        }
        transport.execute(e -> {
            long now = transport.now();
            try {
                if (!call.isDone()) {
                    if (buf.isReadable()) {
                        call.write(now, buf);
                    } else {
                        buf.release();
                    }
                    if (finish) {
                        call.finishSending(now);
                    }
                } else {
                    buf.release();
                }
            } finally {
                synchronized (lock) {
                    pendingWrites--;
                    loopWritable = call.isDone() || call.isWritable() || finish;
                    lock.notifyAll();
                }
            }
        });
    }

    /** Output stream: gathers bytes into chunks; {@link #close()} ends the request or reply (LAST_PACKET). */
    private final class Output extends OutputStream {
        private ByteBuf chunk;
        private boolean closed;

        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            if (closed) {
                throw new IOException("stream closed");
            }
            synchronized (lock) {
                checkFailed();
            }
            while (len > 0) {
                if (chunk == null) {
                    chunk = PooledByteBufAllocator.DEFAULT.heapBuffer(CHUNK, CHUNK);
                }
                int n = Math.min(len, chunk.writableBytes());
                chunk.writeBytes(b, off, n);
                off += n;
                len -= n;
                if (!chunk.isWritable()) {
                    ByteBuf full = chunk;
                    chunk = null;
                    submitWrite(full, false);
                }
            }
        }

        @Override
        public void flush() throws IOException {
            if (chunk != null && chunk.isReadable()) {
                ByteBuf part = chunk;
                chunk = null;
                submitWrite(part, false);
            }
        }

        @Override
        public void close() throws IOException {
            if (closed) {
                return;
            }
            closed = true;
            ByteBuf last = chunk != null ? chunk : PooledByteBufAllocator.DEFAULT.heapBuffer(0, 0);
            chunk = null;
            submitWrite(last, true);
        }
    }

    /** Input stream over the peer's data; -1 at the end of the peer's stream; RxException on abort. */
    private final class Input extends InputStream {
        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            int n = read(one, 0, 1);
            return n < 0 ? -1 : one[0] & 0xFF;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (len == 0) {
                return 0;
            }
            boolean wantPull;
            int n;
            synchronized (lock) {
                while (inbox.isEmpty()) {
                    checkFailed();
                    if (eof) {
                        return -1;
                    }
                    await();
                }
                ByteBuf head = inbox.peek();
                n = Math.min(len, head.readableBytes());
                head.readBytes(b, off, n);
                if (!head.isReadable()) {
                    inbox.poll().release();
                }
                int before = inboxBytes;
                inboxBytes -= n;
                wantPull = before >= INBOX_LIMIT / 2 && inboxBytes < INBOX_LIMIT / 2 && !pullScheduled;
                if (wantPull) {
                    pullScheduled = true;
                }
            }
            if (wantPull) {
                transport.execute(e -> {
                    synchronized (lock) {
                        pullScheduled = false;
                    }
                    if (!call.isDone()) {
                        pull(call);
                    }
                });
            }
            return n;
        }

        @Override
        public int available() {
            synchronized (lock) {
                return inboxBytes;
            }
        }

        @Override
        public void close() {
            // Reading side closes with the call.
        }
    }

    /** Releases staged buffers (after the call ended and the application is done with it). */
    void releaseInbox() {
        synchronized (lock) {
            while (!inbox.isEmpty()) {
                inbox.poll().release();
            }
            inboxBytes = 0;
        }
    }

    boolean isDone() {
        synchronized (lock) {
            return done;
        }
    }

    void awaitDone() throws IOException {
        synchronized (lock) {
            while (!done) {
                await();
            }
            checkFailed();
        }
    }
}
