// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine.call;

import io.netty.buffer.ByteBuf;

/**
 * Events of one call, delivered on the engine's thread, one at a time (never nested in another event), after
 * the entry point that caused them has updated the engine. Implementations must not block (the transport hands
 * work to application threads) and should not throw: the engine catches what one throws, counts it
 * ({@code LISTENER_FAILURES}), aborts its call with RX_INVALID_OPERATION (−2) when the call has not ended (the end
 * then comes back as {@link #onComplete}, and the ABORT goes to the peer) and goes on with the other events.
 *
 * <p>The engine hands the peer's in-order bytes to the listener ({@link #onData}) while it {@link #wantsData wants
 * them}; a listener never calls back into {@link Call#read} from inside an event. What it leaves in the call (its
 * receive window closes: the flow control back to the sender) the application takes later with {@link Call#read}
 * from a task of its own on the engine's thread.
 */
public interface CallListener {
    /**
     * Asked before each {@link #onData}: whether the listener takes more of the peer's bytes now.
     *
     * @param call the call
     * @return true to be given the next bytes; false leaves them in the call. Default: true
     */
    default boolean wantsData(Call call) {
        return true;
    }

    /**
     * The next in-order bytes of the peer's stream (rx-wire-facts.md §5); reading them advanced the hard ack.
     *
     * <p>Ownership: {@code data} passes to the listener, which releases it.
     *
     * @param call the call
     * @param data the bytes, non-empty
     * @param now the time of the engine entry point that delivers them, ns
     */
    void onData(Call call, ByteBuf data, long now);

    /**
     * The peer's whole stream (through LAST_PACKET) was delivered: no {@link #onData} follows. Told once, after the
     * last bytes, when the engine delivered them (the application that reads the rest itself with {@link Call#read}
     * sees {@link Call#isReadComplete()} instead). Default: nothing.
     *
     * @param call the call
     * @param now the time of the engine entry point, ns
     */
    default void onReadComplete(Call call, long now) {
    }

    /**
     * Room opened in the call's send buffer (see {@link Call#isWritable()}).
     *
     * @param call the call
     */
    void onWritable(Call call);

    /**
     * The call ended: {@code errorCode} 0 for success, else the Rx abort code (negative Rx/rxgen codes,
     * positive application codes) from the peer's ABORT or a local failure (dead peer, timeout).
     * Called exactly once per call.
     *
     * @param call the call
     * @param errorCode 0 or the abort code
     */
    void onComplete(Call call, int errorCode);

    /**
     * The peer acknowledged some of this call's DATA for the first time (an ACK that moved the send window, or an
     * ACKALL); told once per call, not for later ACKs. The rpc layer's service probe reads its verdict from it
     * (docs/errors.md "Unknown service or class not offered").
     *
     * @param call the call (not done)
     * @param now the time of the ACK, ns
     */
    default void onFirstAck(Call call, long now) {
    }

    /**
     * @return true when this listener wants {@link #onFirstAck}: the engine raises that event only for such calls, so
     *     the others pay nothing for it
     */
    default boolean wantsFirstAck() {
        return false;
    }

    /**
     * A client call stalled: nothing heard from the server for the dead time / 24 (500 ms by default) while data of the call
     * waits for acknowledgement, or for a keepalive interval plus that while it waits for the reply; told again every
     * keepalive interval (dead time / 6) while the silence lasts. The rpc layer probes the server's port then, so
     * that a server which died during the call is noticed by ICMP instead of the dead time (docs/embedding.md, "A
     * peer that does not answer"). Nothing is sent by the engine for it.
     *
     * @param call the call (client side, active)
     * @param now the time of the timer that noticed the stall, ns
     */
    default void onStall(Call call, long now) {
    }

    /** A listener that ignores every event and leaves the peer's bytes in the call. */
    CallListener NONE = new CallListener() {
        @Override
        public boolean wantsData(Call call) {
            return false;
        }

        @Override
        public void onData(Call call, ByteBuf data, long now) {
            data.release();
        }

        @Override
        public void onWritable(Call call) {
        }

        @Override
        public void onComplete(Call call, int errorCode) {
        }
    };
}
