// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc.example;

import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.rx4j.rpc.RxCall;
import org.rx4j.rpc.RxCallContext;
import org.rx4j.rpc.RxCallOptions;
import org.rx4j.rpc.RxClientInterceptor;
import org.rx4j.rpc.RxConnection;
import org.rx4j.rpc.RxEndpoint;
import org.rx4j.rpc.RxProcNames;
import org.rx4j.rpc.RxServerInterceptor;
import org.rx4j.rpc.RxService;
import org.rx4j.rpc.errors.RxException;

/**
 * docs/embedding.md's "Interceptors" and "Cancellation" examples: the regions between the markers are in the doc
 * verbatim (ProductionDocTest checks that), and ProductionExampleTest runs them.
 */
public final class ProductionExample {
    // interceptors:begin
    static final int SERVICE_ID = 4243;
    static final int OP_READ = 1;
    static final int OP_DELETE = 2;
    static final int OP_SLOW = 3;
    /** An application abort code (docs/errors.md: applications use positive codes). */
    static final int EPERM = 1;
    /** The procedures' names, for interceptors, the call log and metrics; both endpoints below use them. */
    static final RxProcNames NAMES = (service, opcode) -> service != SERVICE_ID ? null : switch (opcode) {
        case OP_READ -> "Read";
        case OP_DELETE -> "Delete";
        case OP_SLOW -> "Slow";
        default -> null;
    };

    /** Refuses anonymous deletes before any handler runs; prints each call's procedure, caller, code and time. */
    static RxServerInterceptor audit(PrintStream log) {
        return call -> {
            // Event loop: must not block. The opcode is known; the arguments have not been read.
            if (call.opcode().orElse(-1) == OP_DELETE && call.identity().isEmpty()) {
                throw RxException.local(EPERM, "anonymous callers may not delete");   // the caller gets abort 1
            }
            return (code, nanos) -> log.println(call.procName().orElse("?") + " from "
                    + call.identity().map(Object::toString).orElse("anonymous") + ": code " + code);
        };
    }

    /** Counts a client's calls per procedure name (a stand-in for a metrics or tracing library). */
    static RxClientInterceptor count(java.util.Map<String, Integer> calls) {
        return call -> {
            calls.merge(call.procName().orElse("other"), 1, Integer::sum);   // the caller's thread
            return null;                                                     // nothing to do at the end
        };
    }

    static RxEndpoint server(PrintStream log, BlockingQueue<String> slowSaw) throws IOException {
        return RxEndpoint.builder()
                .bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))
                .procNames(NAMES)
                .serverInterceptor(audit(log))
                .service(RxService.builder(SERVICE_ID)
                        .blocking(OP_READ, (call, op) -> call.output().write(new byte[] {0, 0, 0, 42}))   // XDR int 42
                        .blocking(OP_DELETE, (call, op) -> call.output().write(new byte[4]))
                        .blocking(OP_SLOW, (call, op) -> slow(call, slowSaw))
                        .build())
                .open();
    }
    // interceptors:end

    private ProductionExample() {
    }

    // cancellation:begin
    // OP_SLOW and the server: the Interceptors example above.
    /** A long job that stops as soon as its caller gives up (cancel, deadline, closed connection, server close). */
    static void slow(RxCall call, BlockingQueue<String> saw) throws InterruptedException {
        RxCallContext context = call.context();
        BlockingQueue<Object> wake = new LinkedBlockingQueue<>();
        context.onCancel(() -> wake.add("cancelled"));    // event loop: must not block
        for (int step = 0; step < 600 && !context.isCancelled(); step++) {
            wake.poll(100, TimeUnit.MILLISECONDS);        // a step of work that a cancel cuts short
        }
        saw.add("slow stopped: cancelled=" + context.isCancelled() + " code=" + context.cancelCode());
        // Returning is enough: the call has ended, there is nothing left to write to it.
    }

    /** Starts a slow call and gives up on it, as a caller whose user went away does. */
    static void giveUp(RxConnection conn) throws IOException {
        // writes the opcode; Slow takes no arguments
        RxCall call = conn.newCall(RxCallOptions.DEFAULT.withOpcode(OP_SLOW));
        call.output().flush();
        call.cancel();           // ABORT −6 to the server: the handler's context is cancelled
        call.close();
    }
    // cancellation:end

    /** Runs both examples against a fresh server, printing what the server's interceptor and handler saw. */
    static void run(PrintStream out) throws Exception {
        BlockingQueue<String> slowSaw = new LinkedBlockingQueue<>();
        java.util.Map<String, Integer> counts = new java.util.concurrent.ConcurrentHashMap<>();
        try (RxEndpoint server = server(out, slowSaw);
             RxEndpoint client = RxEndpoint.builder().bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))
                     .procNames(NAMES)
                     .clientInterceptor(count(counts)).open()) {
            RxConnection conn = client.connect(server.localAddress(), SERVICE_ID);
            out.println("read: " + conn.call(OP_READ, w -> { }, r -> r.readInt()));
            try {
                conn.call(OP_DELETE, w -> { }, r -> r.readInt());
            } catch (RxException e) {
                out.println("delete: abort " + e.code());
            }
            giveUp(conn);
            out.println(slowSaw.poll(30, TimeUnit.SECONDS));
            out.println("client calls: " + new java.util.TreeMap<>(counts));
        }
    }
}
