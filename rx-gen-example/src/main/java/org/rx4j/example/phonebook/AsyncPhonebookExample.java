// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.example.phonebook;

import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.rx4j.rpc.RxEndpoint;
import org.rx4j.rpc.RxRequest;
import org.rx4j.rpc.errors.RxException;
import org.rx4j.security.RxNullSecurityClass;

/**
 * The phonebook served without a thread per call: the generated {@code PbAsyncServer} returns a
 * {@code CompletionStage} per proc and {@code PbAsyncDispatcher} registers it as rx-core async handlers; the client's
 * futures complete on the client endpoint's callback executor (docs/rxgen.md, "Async servers").
 */
public final class AsyncPhonebookExample {
    private AsyncPhonebookExample() {
    }

    /**
     * The server side, async: methods run on the event loop and must not block, so lookups run on {@code work} and
     * complete the stage from there.
     */
    static final class AsyncPhonebook implements PbAsyncServer {
        private final Map<String, Integer> numbers = new ConcurrentHashMap<>();
        private final Executor work;

        /** @param work where lookups run (anything but the event loop) */
        AsyncPhonebook(Executor work) {
            this.work = work;
        }

        @Override
        public CompletionStage<Void> add(RxRequest request, PbEntry entry) {
            numbers.put(entry.name(), entry.number());
            return CompletableFuture.completedFuture(null);
        }

        @Override
        public CompletionStage<Integer> lookup(RxRequest request, String name) {
            return CompletableFuture.supplyAsync(() -> {
                Integer n = numbers.get(name);
                if (n == null) {   // a failed stage with the application's code aborts the call with it
                    throw new CompletionException(RxException.local(PhonebookExample.NO_SUCH_NAME,
                            "no such name: " + name));
                }
                return n;
            }, work);
        }

        @Override
        public CompletionStage<List<PbEntry>> list(RxRequest request) {
            List<PbEntry> entries = new ArrayList<>();
            new TreeMap<>(numbers).forEach((name, number) -> entries.add(new PbEntry(name, number)));
            return CompletableFuture.completedFuture(entries);
        }
    }

    /**
     * Starts an async server on 127.0.0.1, calls it from a client whose futures complete on an executor of its own,
     * prints what came back.
     *
     * @param out where to print
     * @throws Exception if an endpoint cannot open or a call fails unexpectedly
     */
    public static void run(PrintStream out) throws Exception {
        InetSocketAddress loopback = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
        ExecutorService work = Executors.newFixedThreadPool(2);
        ExecutorService callbacks = Executors.newSingleThreadExecutor();
        try (RxEndpoint server = RxEndpoint.builder().bind(loopback)
                     .service(PbAsyncDispatcher.service(PhonebookExample.SERVICE_ID, RxNullSecurityClass.INSTANCE,
                             new AsyncPhonebook(work)))
                     .open();
             RxEndpoint client = RxEndpoint.builder().bind(loopback)
                     .callbackExecutor(callbacks)              // where the client's futures complete
                     .open();
             PbClient book = PbClient.connect(client, server.localAddress(), PhonebookExample.SERVICE_ID,
                     RxNullSecurityClass.INSTANCE)) {
            book.addAsync(new PbEntry("alice", 1234))
                    .thenCompose(v -> book.lookupAsync("alice"))
                    .thenAccept(n -> out.println("alice -> " + n))
                    .get(10, TimeUnit.SECONDS);
            out.println("book: " + book.list());
            try {
                book.lookup("carol");
            } catch (RxException e) {
                out.println("carol -> " + e.getMessage());
            }
        } finally {
            work.shutdown();
            callbacks.shutdown();
        }
    }
}
