// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.transport;

import java.net.InetSocketAddress;

/**
 * The pipeline event that a datagram from {@link #sender()} did not decode as Rx (counted and dropped by the
 * {@link DatagramDecoder}); the {@link EngineHandler} tells the engine, which counts it at the sender's peer when it
 * knows one (docs/errors.md "Local reasons": NOT_RX). One reusable instance per decoder, loop only: a flood of
 * garbage allocates nothing for it.
 */
final class NotRxDatagram {
    private InetSocketAddress sender;

    /** @return the sender of the last datagram that did not decode */
    InetSocketAddress sender() {
        return sender;
    }

    /**
     * @param from the sender of a datagram that did not decode
     * @return this event, for firing
     */
    NotRxDatagram from(InetSocketAddress from) {
        this.sender = from;
        return this;
    }
}
