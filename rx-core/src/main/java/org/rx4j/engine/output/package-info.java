// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

/**
 * The way out of the engine and the packets it sends unasked-for: the {@code PacketSink} every packet goes to
 * (the transport or the test simulator), the small raw ABORT that answers a packet no connection owns
 * ({@code RawAborts}, rx-wire-facts.md §2, §13) and the pacing of such replies ({@code BurstPacer}). Uses only the
 * telemetry room. Internal: public for the engine's other rooms and the transport.
 */
package org.rx4j.engine.output;
