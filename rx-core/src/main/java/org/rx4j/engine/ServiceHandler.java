// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine;

import org.rx4j.engine.call.Call;
import org.rx4j.engine.call.CallListener;

/**
 * A server-side service registered with {@link RxEngine#registerService}: told of each new incoming call.
 * Called on the engine's thread; must not block and should not throw (see {@link CallListener}).
 */
public interface ServiceHandler {
    /**
     * A new call started (after the reachability check, if enabled). The handler sets the call's
     * listener ({@link Call#setListener}) before returning, then reads the request and writes the reply.
     *
     * @param call the new server call
     */
    void onNewCall(Call call);
}
