// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc.errors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.rx4j.rpc.RxConnection;
import org.rx4j.rpc.RxEndpoint;
import org.rx4j.rpc.RxService;
import org.rx4j.testing.LeakCheckExtension;

/**
 * Error names and local reasons (docs/errors.md): codes of a registered com_err table print by name, Rx and rxgen codes
 * by the wire catalog's name, and a closing endpoint and a handler that threw are distinct in the exception while
 * the wire code stays what OpenAFS sends (−2).
 */
@Timeout(60)
@ExtendWith(LeakCheckExtension.class)
class ErrorNamesTest {
    @Test
    void registeredTableNamesItsCodes() {
        // A made-up table ("ZQ", base from its name as com_err computes it) so no other test's table is touched.
        int base = 0x3a4f00;
        RxErrorTables.register("ZQ", Map.of(base + 4, new String[] {"ZQ_NOENT", "no such entry"}));
        assertEquals("call aborted by peer: ZQ_NOENT (" + (base + 4) + "): no such entry",
                RxException.remote(base + 4).getMessage());
        assertEquals("ZQ_NOENT", RxException.remote(base + 4).codeName());
        assertEquals("ZQ", RxErrorTables.lookup(base + 4).table());
        assertEquals("call aborted by peer: error " + (base + 5), RxException.remote(base + 5).getMessage());
        assertEquals("call aborted by peer: RXGEN_OPCODE (-455)", RxException.remote(-455).getMessage());
        assertEquals("RX_CALL_DEAD (-1)", RxErrorTables.describe(-1));
        // Registering again replaces the table.
        RxErrorTables.register("ZQ", Map.of(base + 5, new String[] {"ZQ_OTHER", "another"}));
        assertNull(RxErrorTables.lookup(base + 4));
        assertEquals("ZQ_OTHER", RxException.remote(base + 5).codeName());
        assertThrows(IllegalArgumentException.class, () -> RxErrorTables.register("ZQ", Map.of(-3, new String[2])));
        assertThrows(IllegalArgumentException.class,
                () -> RxErrorTables.register("ZQ", Map.of(base, new String[] {"only a name"})));
    }

    /** rx-core's own tables (rxkad's) name their codes without the application registering anything. */
    @Test
    void rxkadCodesAreNamedByDefault() {
        int badTicket = org.rx4j.security.rxkad.RxkadCodes.RXKADBADTICKET;
        assertEquals("call aborted by peer: RXKADBADTICKET (19270407): the ticket does not open with the server's key",
                RxException.remote(badTicket).getMessage());
        assertEquals("RXKADLEVELFAIL", RxException.local(19270402, null).codeName());
        assertEquals("rxk", RxErrorTables.lookup(org.rx4j.security.rxkad.RxkadCodes.RXKADEXPIRED).table());
    }

    @Test
    void reasonsAreDistinctButTheCodeStays() {
        RxException closing = RxException.local(RxCodes.RX_INVALID_OPERATION, RxException.Reason.ENDPOINT_CLOSING,
                "endpoint closing", null);
        assertEquals("call aborted locally (endpoint closing): RX_INVALID_OPERATION (-2): endpoint closing",
                closing.getMessage());
        assertEquals(RxException.Reason.PEER, RxException.remote(-2).reason());
        assertEquals(RxException.Reason.OTHER, RxException.local(-2, "x").reason());
        assertThrows(IllegalArgumentException.class,
                () -> RxException.local(-2, RxException.Reason.PEER, null, null));
    }

    @Test
    void closingEndpointAndThrowingHandlerAreTold() throws Exception {
        CompletableFuture<RxException> serverSide = new CompletableFuture<>();
        RxService service = RxService.builder(620)
                .blocking(1, (call, op) -> {
                    call.completion().whenComplete((v, t) -> serverSide.complete(
                            t == null ? null : (RxException) (t instanceof CompletionException ? t.getCause() : t)));
                    throw new IllegalStateException("a handler bug");
                })
                .build();
        try (RxEndpoint server = RxEndpoint.builder().bind(new InetSocketAddress("127.0.0.1", 0)).service(service)
                .open()) {
            RxEndpoint client = RxEndpoint.builder().bind(new InetSocketAddress("127.0.0.1", 0)).open();
            RxConnection conn = client.connect(server.localAddress(), 620);
            RxException peer = assertThrows(RxException.class, () -> conn.call(new byte[] {0, 0, 0, 1}));
            assertEquals(RxCodes.RX_INVALID_OPERATION, peer.code(), "the wire code is OpenAFS's −2");
            assertTrue(peer.remote());
            RxException local = serverSide.get(30, TimeUnit.SECONDS);
            assertEquals(RxCodes.RX_INVALID_OPERATION, local.code());
            assertFalse(local.remote());
            assertEquals(RxException.Reason.HANDLER_THREW, local.reason());

            client.close(0);
            RxException refused = assertThrows(RxException.class, conn::newCall);
            assertEquals(RxCodes.RX_INVALID_OPERATION, refused.code());
            assertEquals(RxException.Reason.ENDPOINT_CLOSING, refused.reason());
            ExecutionException async = assertThrows(ExecutionException.class,
                    () -> conn.callAsync(new byte[] {0, 0, 0, 1}).get(30, TimeUnit.SECONDS));
            assertEquals(RxException.Reason.ENDPOINT_CLOSING,
                    assertInstanceOf(RxException.class, async.getCause()).reason());
        }
    }
}
