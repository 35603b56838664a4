// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine.pmtu;

/**
 * Sends one path-MTU probe for a {@link PathMtuProber}: a PING (REQUEST_ACK) padded to a datagram size, whose
 * PING_RESPONSE proves the path carries that size (docs/engine.md "Packet size"). Part of {@link PathMtuCall}; the
 * engine's sends through the call's {@code AckScheduler.sendMtuProbe}.
 */
@FunctionalInterface
public interface ProbeSender {
    /**
     * @param now current time, ns
     * @param datagramBytes the probe's size on the wire, Rx header included, bytes
     * @return the probe's serial, which its PING_RESPONSE names
     */
    int send(long now, int datagramBytes);
}
