// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.example.phonebook;

import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.rx4j.rpc.RxCall;
import org.rx4j.rpc.RxEndpoint;
import org.rx4j.rpc.errors.RxException;
import org.rx4j.security.RxNullSecurityClass;

/**
 * From an {@code .xg} file to a running client and server: {@code src/main/xg/phonebook.xg} is turned into Java by
 * the rx-gen Maven plugin (PbClient, PbServer, PbDispatcher, PbEntry, ...); this class serves it and calls it.
 */
public final class PhonebookExample {
    /** The service id (an .xg file does not name one; clients and servers agree on it). */
    public static final int SERVICE_ID = 4300;
    /** Abort code for a name that is not in the book (applications use positive codes). */
    public static final int NO_SUCH_NAME = 1;

    private PhonebookExample() {
    }

    /** The server side: implement the generated interface. Methods run on the endpoint's worker pool. */
    static final class Phonebook implements PbServer {
        private final Map<String, Integer> numbers = new ConcurrentHashMap<>();

        @Override
        public void add(RxCall call, PbEntry entry) {
            numbers.put(entry.name(), entry.number());
        }

        @Override
        public int lookup(RxCall call, String name) throws RxException {
            Integer n = numbers.get(name);
            if (n == null) {
                throw RxException.local(NO_SUCH_NAME, "no such name: " + name);
            }
            return n;
        }

        @Override
        public List<PbEntry> list(RxCall call) {
            List<PbEntry> entries = new ArrayList<>();
            new TreeMap<>(numbers).forEach((name, number) -> entries.add(new PbEntry(name, number)));
            return entries;
        }
    }

    /**
     * Starts a server on 127.0.0.1, calls every proc from a client, prints what came back.
     *
     * @param out where to print
     * @throws IOException if an endpoint cannot open or a call fails unexpectedly
     */
    public static void run(PrintStream out) throws Exception {
        InetSocketAddress loopback = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
        try (RxEndpoint server = RxEndpoint.builder().bind(loopback)
                     .service(PbDispatcher.service(SERVICE_ID, RxNullSecurityClass.INSTANCE, new Phonebook()))
                     .open();
             RxEndpoint client = RxEndpoint.builder().bind(loopback).open()) {
            PbClient book = PbClient.connect(client, server.localAddress(), SERVICE_ID, RxNullSecurityClass.INSTANCE);
            book.add(new PbEntry("alice", 1234));                                   // blocking
            book.addAsync(new PbEntry("bob", 5678)).get(10, TimeUnit.SECONDS);      // CompletableFuture
            out.println("alice -> " + book.lookup("alice", Duration.ofSeconds(5))); // with a deadline
            out.println("book: " + book.list());
            try {
                book.lookup("carol");
            } catch (RxException e) {
                out.println("carol -> " + e.getMessage());
            }
        }
    }

    /**
     * @param args none
     * @throws Exception if the example fails
     */
    public static void main(String[] args) throws Exception {
        run(System.out);
    }
}
