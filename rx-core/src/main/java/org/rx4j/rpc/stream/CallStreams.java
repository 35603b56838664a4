// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc.stream;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.util.ArrayDeque;
import java.util.concurrent.CompletableFuture;
import org.rx4j.engine.call.Call;
import org.rx4j.engine.call.CallListener;
import org.rx4j.rpc.RxCallContext;
import org.rx4j.rpc.client.ClientEndReasons;
import org.rx4j.rpc.client.PeerUnreachable;
import org.rx4j.rpc.errors.RxCodes;
import org.rx4j.rpc.errors.RxException;
import org.rx4j.rpc.metrics.CallMeter;
import org.rx4j.rpc.runtime.ApiAccess;
import org.rx4j.rpc.runtime.CallHooks;
import org.rx4j.rpc.runtime.EndpointRuntime;

/**
 * Bridges one engine {@link Call} (owned by the event loop) to blocking streams used by an application
 * thread (design.md "transport": application threads hand work to the loop; no shared mutable state
 * but this object's monitor). Flow control both ways: a writer blocks while the call's send buffer is
 * full (2 × twind packets, rx-wire-facts.md §5); the loop pulls received data only while fewer than
 * {@link #INBOX_LIMIT} bytes wait for the reader, so a slow reader closes the receive window.
 *
 * <p>Wake-ups: the loop never notifies per packet; it asks the runtime to wake this object's waiting
 * application thread once at the end of its unit of work ({@link EndpointRuntime#wakeLater}), so a blocked reader
 * or writer wakes once per read burst with everything that burst brought (data, end of stream, completion).
 *
 * <p>Buffers: received {@link ByteBuf}s wait in the inbox, owned by this object, until the reader copies
 * them out; the inbox is released as soon as the call fails (reads then throw the abort) or when
 * {@link #release()} runs. Outgoing bytes are gathered in plain arrays and wrapped only when handed to the
 * loop, so an application thread that abandons a stream holds no pooled buffer.
 */
public final class CallStreams implements CallListener {
    /** Bytes the loop may stage for a reader before it stops pulling from the call. */
    public static final int INBOX_LIMIT = 512 * 1024;
    /** Bytes an application write is gathered into before it is handed to the loop (32 packets of 1412). */
    public static final int CHUNK = 32 * 1412;
    /**
     * Smallest gathering array, bytes: a short RPC's arguments (an opcode and a few XDR words: FetchStatus is 16
     * bytes) fit, so a small call neither zeroes a whole {@link #CHUNK} nor a packet's 1,412 bytes (the allocation
     * profile of SmallCallBenchmark); the array doubles up to CHUNK as writes add up.
     */
    public static final int FIRST_CHUNK = 128;

    private final EndpointRuntime runtime;
    private final boolean server;
    private Call call;
    private final Object lock = new Object();
    private final ArrayDeque<ByteBuf> inbox = new ArrayDeque<>();
    private int inboxBytes;
    private boolean eof;
    private boolean done;
    private int error;
    private boolean remote;
    private boolean released;
    /**
     * Received data was thrown away unread (the call was aborted with bytes staged): the reply is incomplete even if
     * its end had arrived.
     */
    private boolean lost;
    /** The call was ended by the endpoint's close (grace period over): reads drain the inbox, then fail. */
    private boolean endedByClose;
    /** Supplies why the server is known unreachable (client calls), or null. */
    private java.util.function.Supplier<PeerUnreachable> deadReason;
    /** Client calls: run on the loop when the engine finds the call stalled (the connection re-probes), or null. */
    private Runnable stalled;
    /** Why the call died of an unreachable server, read from {@link #deadReason} when it ended; guarded by lock. */
    private PeerUnreachable deadWhy;
    /** Why this side aborted the call, when it said (e.g. a handler threw), or null. Guarded by lock. */
    private RxException.Reason localReason;
    /** Rewrites the call's failures for the application (a generated split proc names its proc), or null. */
    private volatile java.util.function.UnaryOperator<RxException> describer;
    /** Client calls: the connection's view of why a call ended ({@link ClientEndReasons}), or null. */
    private ClientEndReasons.Lookup endReasons;
    /** What {@link #endReasons} said when the call ended, or null. Guarded by lock. */
    private RxException.Reason connectionReason;
    private boolean abortRequested;
    private boolean loopWritable = true;
    /**
     * True while the loop, having marked the call ended, runs the context's listeners, the hooks and the completion's
     * callbacks ({@link #onComplete}); application threads that would report the end wait for it
     * ({@link #awaitAnnounced}).
     * Guarded by lock.
     */
    private boolean announcing;
    private int pendingWrites;
    private boolean pullScheduled;
    /** Application threads in {@link #await()} (guarded by lock): the loop notifies only when one waits. */
    private int waiters;
    /**
     * Bytes a reader in {@link Input#readNBytes} waits for (0: any byte wakes it), at most half of
     * {@link #INBOX_LIMIT} so the loop keeps pulling until it is met. Guarded by lock.
     */
    private int readerWants;
    /** A wake-up is queued with the runtime for the end of this unit of loop work. Loop only. */
    private boolean wakeQueued;
    /** Times the call (docs/embedding.md, "Metrics"); set before the call starts. */
    private CallMeter meter;
    /** Why the call never started (engine refused it), or null. */
    private String startFailure;
    /** The call's channel and callNumber as the loop last saw them, for application threads (-1/0 while waiting). */
    private volatile int channel = -1;
    private volatile int callNumber;
    /**
     * Set on the loop once the engine created the call (or refused it): a client call is created on the loop after
     * {@code newCall} returned, so {@link #channel()} waits for this.
     */
    private volatile boolean started;
    private final CompletableFuture<Void> completion = new CompletableFuture<>();
    /** Cancelled when the call ends with an abort code (docs/embedding.md "Cancellation"). */
    private final RxCallContext context = ApiAccess.api().newCallContext();
    /** The call's interceptors and call log, or null; set before the call reaches the loop or its handler. */
    private CallHooks hooks;
    private final CallOutputStream output;
    private final Input input = new Input();
    /** The non-blocking form's sending and receiving sides, or null while the call uses the blocking streams. */
    private FlowSender flowSender;
    private FlowReceiver flowReceiver;

    /**
     * @param runtime the endpoint's shared parts
     * @param server true for a server call (reading never finishes the output implicitly)
     */
    public CallStreams(EndpointRuntime runtime, boolean server) {
        this.runtime = runtime;
        this.server = server;
        this.output = new CallOutputStream(this, runtime, server);
    }

    /**
     * Loop only.
     *
     * @param c the engine call these streams drive (set once, before the application sees the streams)
     */
    public void attach(Call c) {
        this.call = c;
        noteChannel(c);
        synchronized (lock) {
            started = true;
        }
        wakeAtEndOfWork();
    }

    /** Copies the call's channel and callNumber for application threads (they may not read the engine's call). */
    private void noteChannel(Call c) {
        channel = c.channel();
        callNumber = c.callNumber();
    }

    /**
     * @return the call's channel, 0..3, or -1 while it waits for one (or never started); any thread. An application
     *     thread asking before the loop has created the call waits for that once.
     */
    public int channel() {
        awaitStarted();
        return channel;
    }

    /**
     * Client calls: where to ask why an RX_CALL_DEAD happened (the connection's unreachability probe). Set once,
     * before the call starts.
     *
     * @param reason supplies the reason, or null while the server is not known unreachable
     */
    public void deadReason(java.util.function.Supplier<PeerUnreachable> reason) {
        this.deadReason = reason;
    }

    /**
     * Client calls: what to run on the loop when the call stalls ({@link CallListener#onStall}). Set once, before
     * the call starts.
     *
     * @param action the connection's re-probe
     */
    public void onStalled(Runnable action) {
        this.stalled = action;
    }

    @Override
    public void onStall(Call c, long now) {
        if (stalled != null) {
            stalled.run();
        }
    }

    /**
     * Client calls: where to ask, on the loop, why the call ended beyond its code (a refused or closed connection, no
     * answer). Set once, before the call starts.
     *
     * @param lookup the connection's lookup
     */
    public void endReasons(ClientEndReasons.Lookup lookup) {
        this.endReasons = lookup;
    }

    /**
     * Set once, before the call starts: the meter these streams end when the call ends, and on a client the one told
     * the opcode from the request's first bytes.
     *
     * @param m the call's meter
     */
    public void meter(CallMeter m) {
        this.meter = m;
    }

    /** @return the call's callNumber, 0 while it waits for a channel; any thread (waits as {@link #channel()}) */
    public int callNumber() {
        awaitStarted();
        return callNumber;
    }

    /** Waits until the loop has created (or refused) the call; returns at once on the loop or when interrupted. */
    private void awaitStarted() {
        if (started || runtime.transport.loop().inEventLoop()) {
            return;
        }
        synchronized (lock) {
            while (!started && !released) {
                try {
                    await();
                } catch (IOException e) {
                    return; // interrupted (the flag is set again): report what is known
                }
            }
        }
    }

    public OutputStream output() {
        return output;
    }

    /** @return the call's cancellation context */
    public RxCallContext context() {
        return context;
    }

    /**
     * Set once, before the call reaches the loop (client) or its handler (server).
     *
     * @param h the call's interceptors and call log, ended with the call
     */
    public void hooks(CallHooks h) {
        this.hooks = h;
    }

    /**
     * The call ended with {@code code}: cancels the context (running its listeners here) and ends the hooks.
     *
     * @param durationNs the call's duration as its meter recorded it, ns
     */
    private void ended(int code, RxException.Reason why, long durationNs) {
        ApiAccess.api().end(context, code, why);
        if (hooks != null) {
            hooks.ended(code, why, durationNs);
        }
    }

    public InputStream input() {
        return input;
    }

    public CompletableFuture<Void> completion() {
        return completion;
    }

    // ---- loop side (CallListener)

    /**
     * Puts bytes the loop already took from the call (e.g. what followed the opcode) at the head of the inbox.
     * Loop only.
     *
     * @param b the bytes; ownership passes to these streams
     */
    public void preload(ByteBuf b) {
        stage(b);
    }

    /**
     * Adds {@code b} to the inbox and wakes the reader, or releases it when nothing will ever read it (the
     * streams were released or the call failed).
     *
     * @param b received bytes; ownership passes here
     * @return false when {@code b} was released instead
     */
    private boolean stage(ByteBuf b) {
        synchronized (lock) {
            if (released || (done && error != 0)) {
                b.release();
                return false;
            }
            inbox.add(b);
            inboxBytes += b.readableBytes();
        }
        wakeAtEndOfWork();
        return true;
    }

    /** Loop only: wakes the waiting application thread once the loop's current unit of work ends. */
    private void wakeAtEndOfWork() {
        if (!wakeQueued) {
            wakeQueued = true;
            runtime.wakeLater(this);
        }
    }

    /** Loop only (the runtime's end-of-work hook): notifies the waiting application thread, if any. */
    public void wakeNow() {
        wakeQueued = false;
        synchronized (lock) {
            if (waiters > 0 && (readerWants == 0 || waiters > 1 || readerCanGoLocked())) {
                lock.notifyAll();
            }
        }
        driveFlows();
    }

    /** Loop only: lets the non-blocking form's sides act on what changed (data, room, the end). */
    void driveFlows() {
        if (flowSender != null) {
            flowSender.pump();
        }
        if (flowReceiver != null) {
            flowReceiver.drain();
        }
    }

    /**
     * Switches the call to the non-blocking form ({@link RxAsyncStreams}). Any thread, once, before the blocking
     * streams carry anything but a client's opcode: bytes the output gathered are handed to the loop first.
     *
     * @param sender the sending side
     * @param receiver the receiving side
     * @throws IOException if handing over the gathered bytes fails (the call failed)
     */
    public void useFlows(FlowSender sender, FlowReceiver receiver) throws IOException {
        output.handOver();
        runtime.onLoop(e -> {
            flowSender = sender;
            flowReceiver = receiver;
            if (isDone()) {
                settleAfterEnd(); // ended (or never started) before this: nothing else settles it
            }
            driveFlows();
        });
    }

    /** @return the call, once the loop created it; loop only (null before, or when it never started) */
    public Call engineCall() {
        return call;
    }

    /** What a non-blocking reader finds now ({@link #readState()}). */
    enum ReadState { DATA, WAIT, END }

    /**
     * Loop only: what a non-blocking reader finds, in the order the blocking reader looks (staged data first, then
     * the end of a complete stream, then the failure).
     *
     * @return DATA when staged bytes wait, END at the end of the peer's stream, WAIT otherwise
     * @throws RxException the call's failure
     */
    ReadState readState() throws RxException {
        synchronized (lock) {
            if (!inbox.isEmpty() && !released) {
                return ReadState.DATA;
            }
            if (completeLocked() && !released) {
                return ReadState.END;
            }
            checkFailed();
            return eof ? ReadState.END : ReadState.WAIT;
        }
    }

    /**
     * Loop only: copies up to {@code max} staged bytes out (one staged buffer at most) and pulls more from the call
     * when the inbox fell below half its limit.
     *
     * @param max most bytes to take, positive
     * @return a fresh heap array of 1..max bytes, or null when nothing is staged
     */
    byte[] takeStaged(int max) {
        byte[] out;
        boolean wantPull;
        synchronized (lock) {
            ByteBuf head = released ? null : inbox.peek();
            if (head == null) {
                return null;
            }
            out = new byte[Math.min(max, head.readableBytes())];
            head.readBytes(out);
            if (!head.isReadable()) {
                inbox.poll().release();
            }
            int before = inboxBytes;
            inboxBytes -= out.length;
            wantPull = before >= INBOX_LIMIT / 2 && inboxBytes < INBOX_LIMIT / 2;
        }
        if (wantPull && call != null && !call.isDone()) {
            pull(call, runtime.now());
        }
        return out;
    }

    /**
     * Loop only: puts bytes back at the head of the inbox (what a decoder took beyond its item).
     *
     * @param bytes the bytes (not copied)
     * @param off where they start
     * @param len how many, positive
     */
    void unread(byte[] bytes, int off, int len) {
        synchronized (lock) {
            if (released || (done && error != 0)) {
                return;
            }
            inbox.addFirst(Unpooled.wrappedBuffer(bytes, off, len));
            inboxBytes += len;
        }
    }

    /**
     * Loop only: the reply's end was handed to the engine (server calls): the call's duration ends here
     * ({@link CallMeter}).
     *
     * @param now current time, ns
     */
    void replyComplete(long now) {
        meter.replyComplete(now);
    }

    /**
     * @return the call's failure as the application sees it, or RX_USER_ABORT (−6) "the call ended" when it
     *     ended without one (what a send after the end reports)
     */
    RxException failureOrEnded() {
        synchronized (lock) {
            return done && error != 0 ? exception() : RxException.local(RxCodes.RX_USER_ABORT, "the call ended");
        }
    }

    /** @return bytes staged for the reader now (what the loop took from the call and nobody read yet) */
    int stagedBytes() {
        synchronized (lock) {
            return inboxBytes;
        }
    }

    /** @return the call's failure as the application sees it (after it ended with a non-zero code) */
    RxException failure() {
        synchronized (lock) {
            return exception();
        }
    }

    /**
     * Loop only, for the non-blocking form once the call ended: unread received bytes move to one heap array (a
     * receive after the end still gets them) and the pooled buffers go back, so nothing waits for a close.
     */
    void settleAfterEnd() {
        synchronized (lock) {
            if (!released && inboxBytes > 0) {
                ByteBuf copy = Unpooled.buffer(inboxBytes, inboxBytes);
                for (ByteBuf b : inbox) {
                    copy.writeBytes(b, b.readerIndex(), b.readableBytes());
                }
                releaseInboxLocked();
                inbox.add(copy);
                inboxBytes = copy.readableBytes();
            }
        }
        runtime.tracker.released(this);
    }

    /** @return true when a reader waiting for {@link #readerWants} bytes has them, or will never get more */
    private boolean readerCanGoLocked() {
        return inboxBytes >= readerWants || eof || done || released;
    }

    @Override
    public boolean wantsData(Call c) {
        synchronized (lock) {
            return inboxBytes < INBOX_LIMIT && !released;
        }
    }

    @Override
    public void onData(Call c, ByteBuf b, long now) {
        stage(b);
    }

    @Override
    public void onReadComplete(Call c, long now) {
        synchronized (lock) {
            eof = true;
        }
        wakeAtEndOfWork();
    }

    /**
     * Moves received data from the call to the inbox while the inbox has room: the loop's own task once the reader
     * made room (never inside an engine event: then the engine hands the data over, {@link #onData}). Loop only.
     *
     * @param c the call
     * @param now current time, ns: the loop's clock
     */
    public void pull(Call c, long now) {
        while (true) {
            synchronized (lock) {
                if (inboxBytes >= INBOX_LIMIT || released) {
                    return;
                }
            }
            ByteBuf b = c.read(now);
            if (b == null) {
                break;
            }
            if (!stage(b)) {
                return;
            }
        }
        if (c.isReadComplete()) {
            synchronized (lock) {
                eof = true;
            }
            wakeAtEndOfWork();
        }
    }

    @Override
    public void onWritable(Call c) {
        noteChannel(c); // a waiting call that got its channel hears this first
        synchronized (lock) {
            loopWritable = true;
        }
        wakeAtEndOfWork();
    }

    @Override
    public void onComplete(Call c, int errorCode) {
        PeerUnreachable why = errorCode == RxCodes.RX_CALL_DEAD && deadReason != null ? deadReason.get() : null;
        RxException.Reason byConnection = errorCode != 0 && endReasons != null
                ? endReasons.of(errorCode, c.isRemoteError()) : null;
        if (byConnection == RxException.Reason.SERVICE_NOT_OFFERED) {
            // A refusal of the service or the class waits for the probe that tells which (ServiceProbe).
            endReasons.refine(byConnection, r -> completed(c, errorCode, why, r));
            return;
        }
        completed(c, errorCode, why, byConnection);
    }

    /**
     * The call's end, once its reason is known: the streams report it, then the completion and the reader.
     *
     * @param why why the server is known unreachable (an RX_CALL_DEAD's reason), or null
     * @param byConnection the connection's view of why the call ended, or null
     */
    private void completed(Call c, int errorCode, PeerUnreachable why, RxException.Reason byConnection) {
        long durationNs = meter.end(errorCode, runtime.now()); // before an application thread can see the end
        synchronized (lock) {
            done = true;
            error = errorCode;
            announcing = true;
            remote = c.isRemoteError();
            deadWhy = remote ? null : why;
            connectionReason = byConnection;
            if (errorCode == 0) {
                eof = true;
            } else if (!remote && runtime.graceOver) {
                endedByClose = true; // graceful close: the reader still gets what arrived (copied off-pool later)
            } else {
                lost |= !inbox.isEmpty();
                releaseInboxLocked(); // an aborted call's data is never delivered (reads throw at once)
            }
        }
        wakeAtEndOfWork();
        // After the streams report the end (a handler its listener wakes finds its reads and writes failing), before
        // the completion and the reader's wake-up at the end of this loop work.
        RxException.Reason cause;
        synchronized (lock) {
            cause = remote
                    ? (ClientEndReasons.isRemote(connectionReason) ? connectionReason : RxException.Reason.PEER)
                    : endedByClose ? RxException.Reason.ENDPOINT_CLOSING
                    : localReason != null ? localReason
                    : deadWhy != null ? deadWhy.reason() : connectionReason;
        }
        try {
            ended(errorCode, cause, durationNs);
            runtime.tracker.callEnded();
            if (flowReceiver != null) {
                settleAfterEnd();
            }
            if (errorCode == 0) {
                completion.complete(null);
            } else {
                completion.completeExceptionally(exception());
            }
        } finally {
            synchronized (lock) {
                announcing = false;
                if (waiters > 0) {
                    lock.notifyAll();
                }
            }
        }
    }

    /**
     * Loop only: the engine refused to start the call (connection closed, refused by the server or failed, too many
     * calls waiting for a channel, no fresh credentials); the call fails with {@code refusal}'s code and reason as if
     * it had been aborted locally ({@link ClientEndReasons#startRefused}).
     *
     * @param refusal the local failure's code, reason and detail
     */
    public void failToStart(ClientEndReasons.Refusal refusal) {
        int code = refusal.code();
        RxException.Reason reason = refusal.reason() == RxException.Reason.OTHER ? null : refusal.reason();
        long durationNs = meter.end(code, runtime.now());
        synchronized (lock) {
            started = true;
            startFailure = refusal.detail();
            done = true;
            error = code;
            remote = false;
            localReason = reason;
        }
        wakeAtEndOfWork();
        ended(code, reason, durationNs);
        runtime.tracker.callEnded();
        completion.completeExceptionally(exception());
    }

    /** @return the call's failure, as the application's describer rewrote it ({@link #describeFailures}) */
    private RxException exception() {
        RxException e = plainException();
        java.util.function.UnaryOperator<RxException> d = describer;
        if (d == null) {
            return e;
        }
        try {
            RxException described = d.apply(e);
            return described != null ? described : e;
        } catch (RuntimeException bug) { // a describer's own failure must not hide the call's
            e.addSuppressed(bug);
            return e;
        }
    }

    /**
     * Any thread, before the call's failure is seen: the streams, {@link #await()}-based waits and the completion
     * report failures as {@code describer} rewrites them.
     *
     * @param describer rewrites a failure, e.g. naming the procedure; null for none
     */
    public void describeFailures(java.util.function.UnaryOperator<RxException> describer) {
        this.describer = describer;
    }

    private RxException plainException() {
        if (remote) {
            return ClientEndReasons.remote(error, connectionReason);
        }
        if (endedByClose) {
            return RxException.local(error, RxException.Reason.ENDPOINT_CLOSING,
                    "the endpoint closed before the call ended", null);
        }
        if (deadWhy != null) {
            return RxException.local(error, deadWhy.reason(), deadWhy.message(), null);
        }
        if (localReason != null) {
            return RxException.local(error, localReason, startFailure, null);
        }
        if (connectionReason != null) {
            return RxException.local(error, connectionReason,
                    startFailure != null ? startFailure : ClientEndReasons.detail(connectionReason), null);
        }
        return RxException.local(error, startFailure);
    }

    /** @return true when the peer's whole stream arrived and nothing of it was thrown away (a complete read) */
    private boolean completeLocked() {
        return eof && !lost;
    }

    // ---- application side

    /**
     * Lock held, application thread: waits while the loop tells the call's context, hooks and completion that the call
     * ended ({@link #onComplete}), so a thread that wakes for another reason in between cannot see its read or write
     * fail before the context's cancel listeners have run, nor return from {@link #awaitDone} before the completion's
     * callbacks (a pool's or a channel's bookkeeping) have. Returns at once when nothing is being announced, and always
     * on the loop (which is the one announcing). An interrupt does not end the wait (it is short: the loop is running
     * the listeners); the thread's interrupt status is kept.
     */
    private void awaitAnnounced() {
        if (!announcing || runtime.transport.loop().inEventLoop()) {
            return;
        }
        boolean interrupted = false;
        while (announcing) {
            waiters++;
            try {
                lock.wait();
            } catch (InterruptedException e) {
                interrupted = true;
            } finally {
                waiters--;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    private void await() throws IOException {
        if (runtime.transport.loop().inEventLoop()) {
            // Waiting here would block the thread that must wake us: fail loudly instead of hanging.
            throw new IllegalStateException("blocking call stream used on the endpoint's event loop");
        }
        waiters++;
        try {
            lock.wait();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted waiting for the call");
        } finally {
            waiters--;
        }
    }

    /**
     * Asks the loop to abort the call with {@code code} (sent to the peer; the call fails locally with it).
     * A no-op once the call has ended.
     *
     * @param code the abort code, non-zero
     */
    public void abort(int code) {
        abort(code, null);
    }

    /**
     * As {@link #abort(int)}, recording why for the local exception.
     *
     * @param code the abort code, non-zero
     * @param reason the local reason, or null for {@link RxException.Reason#OTHER}
     */
    public void abort(int code, RxException.Reason reason) {
        synchronized (lock) {
            if (done) {
                return;
            }
            abortRequested = true;
            if (reason != null && localReason == null) {
                localReason = reason;
            }
        }
        runtime.onLoop(e -> {
            if (call != null) {
                call.abort(runtime.now(), code);
            }
        });
    }

    /** @return the runtime of the endpoint this call belongs to */
    public EndpointRuntime runtime() {
        return runtime;
    }

    /**
     * Sets the engine call's own hard deadline (RX_CALL_TIMEOUT −3 when it passes).
     *
     * @param deadlineNanoTime absolute time on the endpoint's clock, ns, or
     *     {@code Long.MAX_VALUE} for none
     */
    public void setDeadline(long deadlineNanoTime) {
        ApiAccess.api().deadlineNs(context, deadlineNanoTime); // what the calls a handler makes inherit (RxContext)
        runtime.onLoop(e -> {
            if (call != null) {
                call.setDeadline(runtime.now(), deadlineNanoTime);
            }
        });
    }

    /** @return true once {@link #abort} was asked for by the application */
    public boolean abortRequested() {
        synchronized (lock) {
            return abortRequested;
        }
    }

    /**
     * Throws the call's failure, if it failed or was released: what a write reports ({@link CallOutputStream}).
     * Any thread.
     *
     * @throws RxException the abort the call ended with, or RX_USER_ABORT (−6) once released
     */
    void checkFailedLocked() throws RxException {
        synchronized (lock) {
            checkFailed();
        }
    }

    /**
     * A client's first chunk starts with the opcode: the meter takes it from there (rx-wire-facts.md §6).
     *
     * @param chunk the bytes handed over
     * @param used how many are valid
     */
    void requestBytes(byte[] chunk, int used) {
        meter.opcodeFrom(chunk, used);
    }

    private void checkFailed() throws RxException {
        awaitAnnounced();
        if (released) {
            throw endedByClose ? exception()
                    : RxException.local(RxCodes.RX_USER_ABORT, "the call was released (closed, or its endpoint closed)");
        }
        if (done && error != 0) {
            throw exception();
        }
    }

    /**
     * Hands {@code buf} to the loop, waiting while the call's send buffer is full.
     *
     * @param buf the bytes; ownership passes (released on every path)
     * @param finish end the stream after these bytes (LAST_PACKET)
     * @param flush send a partly filled packet now ({@link Call#flush})
     */
    void submitWrite(ByteBuf buf, boolean finish, boolean flush) throws IOException {
        synchronized (lock) {
            while (!done && !released && (!loopWritable || pendingWrites > 1)) {
                await();
            }
            if (done || released) {
                buf.release();
                checkFailed();
                throw new IOException("call already finished");
            }
            pendingWrites++;
        }
        boolean queued = runtime.onLoop(e -> {
            long now = runtime.now();
            try {
                if (call != null && !call.isDone()) {
                    if (finish && buf.isReadable()) {
                        call.finishSending(now, buf); // one transmission: the last bytes join the last jumbogram
                    } else if (buf.isReadable()) {
                        call.write(now, buf);
                    } else {
                        buf.release();
                    }
                    if (finish) {
                        call.finishSending(now);
                        if (server) {
                            meter.replyComplete(now); // the server's duration ends here (CallMeter)
                        }
                    } else if (flush) {
                        call.flush(now);
                    }
                } else {
                    buf.release();
                }
            } finally {
                synchronized (lock) {
                    pendingWrites--;
                    loopWritable = call == null || call.isDone() || call.isWritable() || finish;
                }
                wakeAtEndOfWork();
            }
        });
        if (!queued) {
            buf.release();
            synchronized (lock) {
                pendingWrites--;
            }
            throw RxException.local(RxCodes.RX_USER_ABORT, RxException.Reason.ENDPOINT_CLOSING, "the endpoint is closed",
                    null);
        }
    }

    /**
     * Input stream over the peer's data; -1 at the end of the peer's stream; {@link RxException} on abort.
     * On a client call, the first read ends the request (closes the output) as OpenAFS's rx_Read does, so
     * split calls can read the streamed reply without an explicit close.
     */
    private final class Input extends InputStream {
        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            int n = read(one, 0, 1);
            return n < 0 ? -1 : one[0] & 0xFF;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            java.util.Objects.checkFromIndexSize(off, len, b.length);
            return read(b, off, len, 1);
        }

        /**
         * Blocks until {@code len} bytes were read or the stream ended, as {@link InputStream#readNBytes(byte[], int,
         * int)}; while it waits, the loop wakes it only once half of {@link #INBOX_LIMIT} (or all it still needs) has
         * arrived, not at every read burst, so a bulk reader costs one wake-up per that many bytes.
         */
        @Override
        public int readNBytes(byte[] b, int off, int len) throws IOException {
            java.util.Objects.checkFromIndexSize(off, len, b.length);
            int n = 0;
            while (n < len) {
                int k = read(b, off + n, len - n, Math.min(len - n, INBOX_LIMIT / 2));
                if (k < 0) {
                    break;
                }
                n += k;
            }
            return n;
        }

        /**
         * @param want bytes to wait for before copying (1..len), unless the stream ends first
         * @return bytes copied (up to len, all that is staged), or -1 at the end of the stream
         */
        private int read(byte[] b, int off, int len, int want) throws IOException {
            if (len == 0) {
                return 0;
            }
            if (!server && !output.isClosed()) {
                output.close();
            }
            boolean wantPull;
            int n;
            synchronized (lock) {
                while (true) {
                    // Staged data first: after a graceful close's abort the reader still gets what arrived.
                    if (!inbox.isEmpty() && !released && (inboxBytes >= want || eof || done)) {
                        break;
                    }
                    if (completeLocked() && !released) {
                        return -1; // the whole stream was read: an abort after that changes nothing for the reader
                    }
                    checkFailed();
                    if (eof) {
                        return -1;
                    }
                    readerWants = want > 1 ? want : 0;
                    try {
                        await();
                    } finally {
                        readerWants = 0;
                    }
                }
                // Everything staged that fits, not one packet's worth: a bulk reader (a file copy) then takes a
                // whole read burst per lock and per wake-up instead of one packet at a time.
                n = 0;
                while (n < len && !inbox.isEmpty()) {
                    ByteBuf head = inbox.peek();
                    int k = Math.min(len - n, head.readableBytes());
                    head.readBytes(b, off + n, k);
                    n += k;
                    if (!head.isReadable()) {
                        inbox.poll().release();
                    }
                }
                int before = inboxBytes;
                inboxBytes -= n;
                wantPull = before >= INBOX_LIMIT / 2 && inboxBytes < INBOX_LIMIT / 2 && !pullScheduled;
                if (wantPull) {
                    pullScheduled = true;
                }
            }
            if (wantPull) {
                runtime.onLoop(e -> {
                    synchronized (lock) {
                        pullScheduled = false;
                    }
                    if (call != null && !call.isDone()) {
                        pull(call, runtime.now());
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

    /** @return true once the application closed the output (LAST_PACKET queued) */
    boolean outputClosed() {
        return output.isClosed();
    }

    /**
     * Releases staged buffers for good; later reads and writes fail with RX_USER_ABORT (−6). Any thread;
     * idempotent.
     */
    public void release() {
        synchronized (lock) {
            released = true;
            releaseInboxLocked();
            lock.notifyAll();
        }
        runtime.tracker.released(this);
    }

    /**
     * The endpoint is closing (its calls have ended): copies unread received bytes to one heap array so the reader
     * can still drain them, releases the pooled buffers, and marks the call ended by the close (later reads past the
     * copy fail with RX_USER_ABORT −6, {@link RxException.Reason#ENDPOINT_CLOSING}). Any thread; idempotent.
     */
    void detachForClose() {
        boolean cut = false;
        synchronized (lock) {
            if (!released) {
                ByteBuf copy = null;
                if (inboxBytes > 0) {
                    copy = Unpooled.buffer(inboxBytes, inboxBytes);
                    for (ByteBuf b : inbox) {
                        copy.writeBytes(b, b.readerIndex(), b.readableBytes());
                    }
                }
                releaseInboxLocked();
                if (copy != null) {
                    inbox.add(copy);
                    inboxBytes = copy.readableBytes();
                }
                if (!done) {
                    done = true;
                    error = RxCodes.RX_USER_ABORT;
                    cut = true;
                }
                if (error != 0) {
                    endedByClose = true;
                }
                lock.notifyAll();
            }
        }
        if (cut) {
            ended(RxCodes.RX_USER_ABORT, RxException.Reason.ENDPOINT_CLOSING,
                    meter.end(RxCodes.RX_USER_ABORT, runtime.now()));
        }
        runtime.tracker.released(this);
        runtime.onLoop(e -> driveFlows()); // the non-blocking form's pending sends and receives hear the end
    }

    private void releaseInboxLocked() {
        while (!inbox.isEmpty()) {
            inbox.poll().release();
        }
        inboxBytes = 0;
    }

    public boolean isDone() {
        synchronized (lock) {
            return done;
        }
    }

    /**
     * Application thread: returns once the loop has finished telling the call's context, hooks and completion that
     * the call ended, if it is doing so now ({@link #awaitAnnounced}); at once otherwise, and always on the loop.
     */
    public void awaitEndAnnounced() {
        synchronized (lock) {
            awaitAnnounced();
        }
    }

    /**
     * Waits until the call has ended.
     *
     * @throws RxException with the abort code if it failed
     * @throws InterruptedIOException if interrupted
     */
    public void awaitDone() throws IOException {
        awaitDone(false);
    }

    /**
     * Waits until the call has ended.
     *
     * @param readToEnd true when the application has read the peer's stream to its end: a failure after a complete
     *     read (e.g. the endpoint's close aborting a call whose reply had fully arrived) is not reported
     * @throws RxException with the abort code if it failed
     * @throws InterruptedIOException if interrupted
     */
    public void awaitDone(boolean readToEnd) throws IOException {
        synchronized (lock) {
            while (!done) {
                await();
            }
            awaitAnnounced(); // the completion's callbacks (a pool's or channel's bookkeeping) run first
            if (error == 0 || (readToEnd && completeLocked() && inbox.isEmpty())) {
                return;
            }
            throw exception();
        }
    }
}
