// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine.debug;

import org.rx4j.wire.DebugRequest;
import org.rx4j.wire.RxHeader;
import org.rx4j.wire.RxPacket;

/**
 * Answers rxdebug's DEBUG requests from the engine's tables and counters (rx-wire-facts.md §9).
 * Called on the engine's thread.
 */
public interface DebugResponder {
    /**
     * @param engine the engine whose state to report
     * @param replyHeader the request's header with CLIENT_INITIATED cleared, to put on the reply
     * @param request the request (debug type and index)
     * @return the reply packet, or null to send nothing
     */
    RxPacket answer(EngineView engine, RxHeader replyHeader, DebugRequest request);
}
