// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine.call;

/**
 * Life-cycle states of a call (after OpenAFS rx.h RX_STATE_*; see rx-wire-facts.md §6).
 */
public enum CallState {
    /** Client call queued: all 4 channels of its connection are busy. */
    WAITING,
    /** Server call received DATA but waits for the peer's reachability PING_RESPONSE. */
    PRECALL,
    /** Sending and/or receiving. */
    ACTIVE,
    /** Server: the whole reply is sent; waiting until every reply packet is acknowledged. */
    HOLD,
    /** Finished successfully; the channel keeps it to answer late packets until the next call. */
    DALLY,
    /** Finished with an error (abort, dead peer, timeout). */
    ERROR
}
