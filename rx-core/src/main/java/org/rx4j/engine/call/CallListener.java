// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine.call;

/**
 * Events of one call, delivered on the engine's thread, one at a time (never nested in another event), after
 * the entry point that caused them has updated the engine. Implementations must not block (the transport hands
 * work to application threads) and should not throw: an exception leaves the engine's entry point (the
 * transport counts and drops it) and the events still queued wait for the engine's next entry point.
 */
public interface CallListener {
    /**
     * In-order data became available to {@link Call#read}, or the end of the peer's stream was reached.
     *
     * @param call the call
     * @param now the time of the engine entry point that delivers the event, ns: pass it to {@link Call#read}
     */
    void onReadable(Call call, long now);

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

    /** A listener that ignores every event. */
    CallListener NONE = new CallListener() {
        @Override
        public void onReadable(Call call, long now) {
        }

        @Override
        public void onWritable(Call call) {
        }

        @Override
        public void onComplete(Call call, int errorCode) {
        }
    };
}
