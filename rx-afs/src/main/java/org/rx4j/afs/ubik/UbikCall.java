// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.afs.ubik;

import java.io.IOException;

/**
 * One RPC made through a {@link UbikClient}: called with the client stub of one server, possibly several
 * times (once per server tried).
 *
 * @param <C> the client stub type (e.g. a generated {@code VlClient})
 * @param <T> the result type
 */
@FunctionalInterface
public interface UbikCall<C, T> {
    /**
     * @param client the stub bound to the server being tried
     * @return the result
     * @throws IOException as the stub throws it; an {@code RxException} whose code is one of
     *     {@link UbikClient#moveOnCodes()} makes the client try the next server
     */
    T call(C client) throws IOException;
}
