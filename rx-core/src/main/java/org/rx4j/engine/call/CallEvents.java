// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine.call;

/**
 * The one way a call and its parts raise the call's events: bound to the call when it is made
 * ({@link ConnectionContext#newCall}) and passed down to the parts, so no part holds the call. Each event goes straight to
 * the engine's event queue (and, for the end of a call, its services and its connection's channels, {@link CallOwner#callEnded}). Clock-free: events that settle
 * work take the caller's {@code now} (ns). Engine thread only.
 */
public interface CallEvents {
    /** @param now current time, ns: the call changed (ACK flush and deadline recompute after processing) */
    void touched(long now);

    /** The call has new in-order data for the application. */
    void readable();

    /** The call became writable again. */
    void writable();

    /** @param now current time, ns: the call reached DALLY or ERROR */
    void ended(long now);

    /** The peer acknowledged the call's data for the first time ({@link CallListener#onFirstAck}). */
    void firstAck();

    /** A client call stalled (nothing heard from the server for a while, {@link CallListener#onStall}). */
    void stalled();

    /** @param now current time, ns: the peer answered the call's reachability PING */
    void peerReachable(long now);
}
