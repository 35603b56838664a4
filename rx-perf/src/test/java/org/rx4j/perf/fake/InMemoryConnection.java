// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.perf.fake;

import java.io.IOException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.rx4j.perf.transport.PerfCall;
import org.rx4j.perf.transport.PerfConnection;
import org.rx4j.rpc.errors.RxCodes;

/**
 * A connection of the in-memory transport. Enforces Rx's 4 calls per connection by failing a fifth concurrent call
 * (a real connection would block), and records calls and the peak of concurrent calls for tests.
 */
public final class InMemoryConnection implements PerfConnection {
    private final InMemoryClient client;
    private final int port;
    private final int serviceId;
    private final AtomicInteger active = new AtomicInteger();
    private final AtomicInteger peakActive = new AtomicInteger();
    private final AtomicInteger calls = new AtomicInteger();
    private final Set<InMemoryCall> open = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;

    InMemoryConnection(InMemoryClient client, int port, int serviceId) {
        this.client = client;
        this.port = port;
        this.serviceId = serviceId;
    }

    @Override
    public PerfCall newCall() throws IOException {
        if (closed) {
            throw new IOException("connection closed");
        }
        int now = active.incrementAndGet();
        peakActive.accumulateAndGet(now, Math::max);
        if (now > 4) {
            active.decrementAndGet();
            throw new IOException("more than 4 concurrent calls on one connection");
        }
        calls.incrementAndGet();
        client.callsStarted.increment();
        InMemoryCall call = new InMemoryCall(this);
        open.add(call);
        InMemoryServer server = client.factory.server(port);
        if (server == null || server.serviceId() != serviceId) {
            // nobody answers: what the real transport reports after the dead time
            call.serverAbort(RxCodes.RX_CALL_DEAD);
        } else {
            server.dispatch(call);
        }
        return call;
    }

    void callEnded(InMemoryCall call) {
        open.remove(call);
        active.decrementAndGet();
    }

    /** @return calls started on this connection */
    public int calls() {
        return calls.get();
    }

    /** @return most calls that were in progress at once */
    public int peakActive() {
        return peakActive.get();
    }

    @Override
    public void close() {
        closed = true;
        for (InMemoryCall call : open) {
            call.abort(RxCodes.RX_CALL_DEAD);
        }
    }
}
