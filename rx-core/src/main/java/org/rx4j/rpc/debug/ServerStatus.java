// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc.debug;

/**
 * A server's answer to GETSTATS (struct rx_debugStats, rx-wire-facts.md §9): its packet pool and thread counts.
 *
 * @param freePackets packets on the server's free list, packets
 * @param packets packets allocated in all, packets
 * @param packetReclaims packet reclaims, count
 * @param callsExecuted calls the server has run, count
 * @param usedFds file descriptors in use, 0..255
 * @param waitingForPackets whether a thread waits for a free packet (never in threaded builds)
 * @param callsWaiting calls waiting for a thread now, count
 * @param idleThreads idle server threads, count
 * @param callsWaited calls that ever waited for a thread, count
 */
public record ServerStatus(int freePackets, int packets, int packetReclaims, int callsExecuted, int usedFds,
                           boolean waitingForPackets, int callsWaiting, int idleThreads, int callsWaited) {
}
