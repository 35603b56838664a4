// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.example.phonebook;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.rx4j.rpc.RxEndpoint;
import org.rx4j.security.RxNullSecurityClass;

/**
 * The plugin's {@code PbOpcodes.procNames} names the calls interceptors see on both sides (docs/rxgen.md, "Proc
 * names"). A server interceptor runs before the method, so before the reply: its names are there when the call
 * returns.
 */
@Timeout(60)
class GeneratedProcNamesTest {
    private static final InetSocketAddress LOOPBACK = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);

    @Test
    void interceptorsSeeTheGeneratedNames() throws Exception {
        assertEquals("PB_Lookup", PbOpcodes.procName(PbOpcodes.LOOKUP));
        assertNull(PbOpcodes.procName(99));
        ConcurrentLinkedQueue<String> served = new ConcurrentLinkedQueue<>();
        ConcurrentLinkedQueue<String> called = new ConcurrentLinkedQueue<>();
        try (RxEndpoint server = RxEndpoint.builder().bind(LOOPBACK)
                     .procNames(PbOpcodes.procNames(PhonebookExample.SERVICE_ID))
                     .serverInterceptor(call -> {
                         served.add(call.procName().orElse("?"));   // "PB_Add", ...
                         return null;
                     })
                     .service(PbDispatcher.service(PhonebookExample.SERVICE_ID, RxNullSecurityClass.INSTANCE,
                             new PhonebookExample.Phonebook()))
                     .open();
             RxEndpoint client = RxEndpoint.builder().bind(LOOPBACK)
                     .procNames(PbOpcodes.procNames(PhonebookExample.SERVICE_ID))
                     .clientInterceptor(call -> {
                         called.add(call.procName().orElse("?"));
                         return null;
                     })
                     .open();
             PbClient book = PbClient.connect(client, server.localAddress(), PhonebookExample.SERVICE_ID,
                     RxNullSecurityClass.INSTANCE)) {
            book.add(new PbEntry("alice", 1234));
            book.lookup("alice");
            book.list();
        }
        assertEquals(List.of("PB_Add", "PB_Lookup", "PB_List"), List.copyOf(called));
        assertEquals(List.of("PB_Add", "PB_Lookup", "PB_List"), List.copyOf(served));
    }
}
