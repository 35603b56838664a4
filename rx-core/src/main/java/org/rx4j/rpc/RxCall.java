package org.rx4j.rpc;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.util.concurrent.CompletableFuture;
import org.rx4j.wire.AbortCodes;

/**
 * One Rx call as an application thread sees it, client or server side: an {@link OutputStream} for
 * this side's data (closing it ends the stream with LAST_PACKET) and an {@link InputStream} for the
 * peer's data (-1 at its end). Stream methods throw {@link RxException} with the abort code when the
 * call fails (rx-wire-facts.md §6). Not thread-safe: one application thread drives a call.
 */
public final class RxCall implements AutoCloseable {
    private final CallStreams streams;
    private final boolean server;
    private final InetSocketAddress peer;

    RxCall(CallStreams streams, boolean server, InetSocketAddress peer) {
        this.streams = streams;
        this.server = server;
        this.peer = peer;
    }

    /** @return the stream for this side's data; close it to send LAST_PACKET */
    public OutputStream output() {
        return streams.output();
    }

    /** @return the stream of the peer's data */
    public InputStream input() {
        return streams.input();
    }

    /** @return true on the server side */
    public boolean isServer() {
        return server;
    }

    /** @return the peer's address */
    public InetSocketAddress peer() {
        return peer;
    }

    /** @return the call's channel (0..3), or -1 while it waits for a free channel */
    public int channel() {
        return streams.call() == null ? -1 : streams.call().channel();
    }

    /** @return the call's callNumber */
    public int callNumber() {
        return streams.call() == null ? 0 : streams.call().callNumber();
    }

    /**
     * @return a future completed when the call ends: normally on success, exceptionally with an
     *     {@link RxException} carrying the abort code on failure
     */
    public CompletableFuture<Void> completion() {
        return streams.completion();
    }

    /**
     * Aborts the call: sends ABORT with {@code code} to the peer and fails the call locally.
     *
     * @param code the abort code (applications use positive codes; {@link AbortCodes#RX_USER_ABORT} = cancel)
     */
    public void abort(int code) {
        streams.abort(code);
    }

    /**
     * Sets a deadline for blocking stream operations: past it the call is aborted with RX_CALL_TIMEOUT (−3).
     *
     * @param deadlineNanoTime an absolute {@link System#nanoTime()} value, or 0 for none
     */
    public void setDeadline(long deadlineNanoTime) {
        streams.setDeadline(deadlineNanoTime);
    }

    /**
     * Waits until the call has ended.
     *
     * @throws RxException with the abort code if it failed
     * @throws IOException if interrupted or the deadline passed
     */
    public void awaitCompletion() throws IOException {
        streams.awaitDone();
    }

    /**
     * Ends the call from the application's side: finishes the output if still open and, for a client, waits
     * for the call to complete; a call still running is aborted with RX_USER_ABORT. Releases staged buffers.
     *
     * @throws RxException with the abort code if the call failed
     */
    @Override
    public void close() throws IOException {
        try {
            if (!streams.isDone()) {
                streams.output().close();
                if (!server) {
                    streams.awaitDone();
                }
            }
        } finally {
            streams.releaseInbox();
        }
    }
}
