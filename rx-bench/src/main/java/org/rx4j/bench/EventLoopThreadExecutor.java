// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.bench;

import io.netty.util.concurrent.DefaultThreadFactory;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * JMH's worker executor for the engine benchmarks ({@code -Djmh.executor=CUSTOM
 * -Djmh.executor.class=org.rx4j.bench.EventLoopThreadExecutor}): its threads are Netty
 * {@code FastThreadLocalThread}s, as the transport's event loop is. Netty 4.2's object recycler pools buffer
 * objects (a {@code retainedSlice}, a pooled buffer's wrapper) only on such threads; on a plain thread every one
 * is a new object, so a benchmark on JMH's default threads would count allocations the event loop does not make.
 */
public final class EventLoopThreadExecutor extends ThreadPoolExecutor {
    /**
     * The constructor JMH's CUSTOM executor type calls.
     *
     * @param maxThreads worker threads JMH needs, &gt;= 1
     * @param prefix the thread name prefix JMH gives
     */
    public EventLoopThreadExecutor(int maxThreads, String prefix) {
        super(maxThreads, maxThreads, 1, TimeUnit.MINUTES, new LinkedBlockingQueue<>(),
                new DefaultThreadFactory(prefix, true));
    }
}
