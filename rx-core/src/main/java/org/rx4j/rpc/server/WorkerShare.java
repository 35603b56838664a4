// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc.server;

import java.util.ArrayDeque;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import org.rx4j.rpc.runtime.EndpointRuntime;

/**
 * One service's share of the endpoint's worker pool (docs/robustness.md, Rule: busy channels and workers): at most
 * {@code max(1, maxWorkers - (services - 1))} of its blocking handlers run at once, so every other registered
 * service keeps at least one worker (OpenAFS reserves threads per service likewise); the rest wait FIFO here, at
 * most {@code maxQueued}, and beyond that are refused. Thread-safe: tasks are submitted on the event loop and
 * finish on workers.
 */
public final class WorkerShare {
    /** A handler waiting for a worker: {@link #run} on a worker, or {@link #reject} when the pool refuses it. */
    interface Task {
        /** Runs the handler (on a worker thread). */
        void run();

        /** The pool refused the task after it had waited here: the call must end with the busy code. */
        void reject();
    }

    private final EndpointRuntime rt;
    private final AtomicInteger services;
    private final int maxWorkers;
    private final int maxQueued;
    private final ArrayDeque<Task> waiting = new ArrayDeque<>();
    private int running;

    /**
     * @param rt the endpoint's shared parts (its worker pool)
     * @param services how many services the endpoint has registered (read at each submission)
     * @param maxWorkers the pool's thread count, &gt;= 1
     * @param maxQueued the most tasks that may wait here, &gt;= 1
     */
    WorkerShare(EndpointRuntime rt, AtomicInteger services, int maxWorkers, int maxQueued) {
        this.rt = rt;
        this.services = services;
        this.maxWorkers = maxWorkers;
        this.maxQueued = maxQueued;
    }

    /** @return the most handlers of this service that may run at once */
    int cap() {
        return Math.max(1, maxWorkers - (services.get() - 1));
    }

    /**
     * Runs {@code task} on a worker when this service is under its share, else queues it.
     *
     * @param task the handler
     * @throws RejectedExecutionException when the service's queue is full or the pool refuses the task; the
     *     caller ends the call with the busy code
     */
    synchronized void submit(Task task) {
        if (running < cap()) {
            running++;
            execute(task);
        } else if (waiting.size() < maxQueued) {
            waiting.add(task);
        } else {
            throw new RejectedExecutionException("service busy: " + running + " running, " + waiting.size()
                    + " waiting");
        }
    }

    /** @return handlers of this service running or handed to the pool */
    synchronized int running() {
        return running;
    }

    /** @return handlers of this service waiting for its share */
    synchronized int waiting() {
        return waiting.size();
    }

    private void execute(Task task) {
        try {
            rt.workers.execute(() -> {
                try {
                    task.run();
                } finally {
                    finished();
                }
            });
        } catch (RejectedExecutionException e) {
            running--;
            throw e;
        }
    }

    /** A handler returned: the oldest waiting one of this service takes its place. */
    private void finished() {
        Task next;
        synchronized (this) {
            running--;
            if (running >= cap() || (next = waiting.poll()) == null) {
                return;
            }
            running++;
        }
        try {
            rt.workers.execute(() -> {
                try {
                    next.run();
                } finally {
                    finished();
                }
            });
        } catch (RejectedExecutionException e) {
            synchronized (this) {
                running--;
            }
            next.reject();
        }
    }
}
