// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

/**
 * Path-MTU discovery for the engine (docs/engine.md "Packet size", "Path MTU below one full packet"): the
 * {@link org.rx4j.engine.pmtu.PathMtuState} of one peer (what the path is known to carry and when it may be probed
 * again; the peer and its calls read its sizes, only the probers change it) and the
 * {@link org.rx4j.engine.pmtu.PathMtuProber} of one call (large-packet, jumbogram, verification and evidence probes,
 * probe ladders, re-cuts). The prober has one door of 8 methods and one owner, the call's sender, which tells it what
 * happened: {@code beforeTransmit}, {@code holdsBack}, {@code onDatagramSent}, {@code afterSending},
 * {@code onTimeout}, {@code onAck}, {@code onRecoveryProbe}, {@code stuckDeadlineNs} (docs/engine.md "The prober's
 * door"); it reads the sizes of now from, and asks probes and re-cuts of, the {@link org.rx4j.engine.pmtu.PathMtuCall}
 * its owner implements. Pure state, no clock, no threads, no Netty channels; every time is a {@code long} in
 * nanoseconds passed in by the caller. Depends on the call's send queue ({@code org.rx4j.engine.recovery}) and the
 * wire codec only, never on the engine package above it.
 */
package org.rx4j.engine.pmtu;
