// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.example.phonebook;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.rx4j.rpc.RxConnection;
import org.rx4j.rpc.RxEndpoint;
import org.rx4j.rpc.errors.RxCodes;
import org.rx4j.security.RxNullSecurityClass;

/**
 * A generated client is AutoCloseable and closes only what it owns: the connection {@code connect} opened, never a
 * connection it was given, never the endpoint (docs/rxgen.md, "Closing a client").
 */
@Timeout(60)
class GeneratedClientCloseTest {
    private static final InetSocketAddress LOOPBACK = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);

    @Test
    void closesTheConnectionItOpenedOnly() throws Exception {
        try (RxEndpoint server = RxEndpoint.builder().bind(LOOPBACK)
                     .service(PbDispatcher.service(PhonebookExample.SERVICE_ID, RxNullSecurityClass.INSTANCE,
                             new PhonebookExample.Phonebook()))
                     .open();
             RxEndpoint client = RxEndpoint.builder().bind(LOOPBACK).open()) {
            PbClient owning;
            try (PbClient book = PbClient.connect(client, server.localAddress(), PhonebookExample.SERVICE_ID,
                    RxNullSecurityClass.INSTANCE)) {
                book.add(new PbEntry("alice", 1234));
                owning = book;
            }
            PhonebookCallException closed = assertThrows(PhonebookCallException.class, () -> owning.lookup("alice"));
            assertEquals(RxCodes.RX_INVALID_OPERATION, closed.code());
            assertTrue(closed.getMessage().contains("connection closed"), closed.getMessage());
            owning.close(); // idempotent

            RxConnection shared = client.connect(server.localAddress(), PhonebookExample.SERVICE_ID,
                    RxNullSecurityClass.INSTANCE);
            try (PbClient borrowed = new PbClient(shared)) {
                assertEquals(1234, borrowed.lookup("alice"));
            }
            assertEquals(1234, new PbClient(shared).lookup("alice"), "a given connection stays open");
            shared.close();
            assertTrue(!client.isClosing(), "the endpoint is not the client's");
        }
    }
}
