// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.relay.core;

/**
 * How the {@link ImpairmentPipeline} copies and disposes of the datagram handles it owns (the Netty shell: a
 * retained duplicate / {@code release()}; tests: identity / no-op).
 *
 * @param <T> the datagram handle
 */
public interface DatagramOps<T> {
    /**
     * @param datagram a handle the pipeline owns
     * @return a second, independently owned handle to the same bytes (for duplication)
     */
    T duplicate(T datagram);

    /**
     * Disposes of a handle the pipeline dropped or cleared; the handle is not used afterwards.
     *
     * @param datagram the handle
     */
    void discard(T datagram);
}
