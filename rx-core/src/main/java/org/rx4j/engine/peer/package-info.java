// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

/**
 * What the engine knows about one remote host:port, shared by all connections to it ({@code Peer}: RTT, MTU and
 * jumbogram limits, reachability; rx-wire-facts.md §3, §6, §8) and the congestion state its calls hand on to the
 * next ({@code CarriedWindow}). Uses the telemetry and output rooms. Internal: public for the engine's other rooms
 * and rpc's statistics reader.
 */
package org.rx4j.engine.peer;
