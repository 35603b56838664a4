// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.perf.protocol;

import java.io.IOException;

/**
 * The peer broke the rxperf protocol: a request or reply ended early, a reply carried the wrong cookie, or a FILE
 * word list cannot be carried by one Rx call. A server turns it into abort −1; a client fails the run with it.
 */
public class RxperfProtocolException extends IOException {
    private static final long serialVersionUID = 1L;

    /**
     * @param message one line saying what was expected and what arrived
     */
    public RxperfProtocolException(String message) {
        super(message);
    }
}
