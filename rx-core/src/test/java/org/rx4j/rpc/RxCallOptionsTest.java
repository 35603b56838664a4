// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.rx4j.rpc.channel.RxConnectionPool;
import org.rx4j.rpc.xdr.XdrReader;
import org.rx4j.testing.LeakCheckExtension;

/**
 * {@link RxCallOptions} as a value, and the call forms that take it over real loopback sockets: the opcode of a raw
 * or streaming call reaches the server's opcode dispatch, the typed forms refuse a second opcode, and a pool and a
 * connection answer the same forms (the target's default methods over its four core methods).
 */
@Timeout(60)
@ExtendWith(LeakCheckExtension.class)
class RxCallOptionsTest {
    static final int SERVICE = 2351;
    static final int OP_ECHO = 7;

    RxEndpoint server;
    RxEndpoint client;

    @BeforeEach
    void start() throws Exception {
        server = RxEndpoint.builder().bind(new InetSocketAddress("127.0.0.1", 0))
                .service(RxService.builder(SERVICE)
                        .async(OP_ECHO, req -> CompletableFuture.completedFuture(req.arguments()))
                        .build())
                .open();
        client = RxEndpoint.builder().bind(new InetSocketAddress("127.0.0.1", 0)).open();
    }

    @AfterEach
    void stop() {
        client.close();
        server.close();
    }

    @Test
    void optionsAreAnImmutableValue() {
        RxCallOptions d = RxCallOptions.DEFAULT;
        assertEquals(Optional.empty(), d.timeout());
        assertEquals(OptionalInt.empty(), d.opcode());
        RxCallOptions both = d.withTimeout(Duration.ofSeconds(3)).withOpcode(OP_ECHO);
        assertEquals(Optional.of(Duration.ofSeconds(3)), both.timeout());
        assertEquals(OptionalInt.of(OP_ECHO), both.opcode());
        assertEquals(OptionalInt.empty(), d.opcode(), "withers leave the original as it was");
        assertEquals(both, RxCallOptions.timeout(Duration.ofSeconds(3)).withOpcode(OP_ECHO));
        assertEquals(both.hashCode(), RxCallOptions.timeout(Duration.ofSeconds(3)).withOpcode(OP_ECHO).hashCode());
        assertNotEquals(both, both.withOpcode(OP_ECHO + 1));
        assertThrows(IllegalArgumentException.class, () -> RxCallOptions.timeout(Duration.ZERO));
        assertThrows(IllegalArgumentException.class, () -> d.withTimeout(Duration.ofMillis(-1)));
        assertThrows(NullPointerException.class, () -> d.withTimeout(null));
    }

    @Test
    void detachedIsKeptByTheOtherWithers() {
        RxCallOptions d = RxCallOptions.DEFAULT.detached();
        assertTrue(RxCallOptions.DEFAULT.inheritsContext(), "inheriting by default");
        assertEquals(false, d.inheritsContext());
        RxCallOptions both = d.withTimeout(Duration.ofSeconds(1)).withOpcode(3);
        assertEquals(false, both.inheritsContext(), "kept through withTimeout and withOpcode");
        assertEquals(RxCallOptions.timeout(Duration.ofSeconds(1)).withOpcode(3).detached(), both);
        assertNotEquals(RxCallOptions.timeout(Duration.ofSeconds(1)).withOpcode(3), both);
        assertTrue(both.toString().contains("detached"), both.toString());
    }

    @Test
    void theOpcodeOfRawAndStreamingCallsReachesTheServersDispatch() throws Exception {
        RxConnection conn = client.connect(server.localAddress(), SERVICE);
        RxCallOptions echo = RxCallOptions.DEFAULT.withOpcode(OP_ECHO);
        byte[] args = "abc".getBytes(StandardCharsets.US_ASCII);
        assertArrayEquals(args, conn.callAsync(args, echo).get(20, TimeUnit.SECONDS));
        try (RxCall call = conn.newCall(echo.withTimeout(Duration.ofSeconds(20)))) {
            call.output().write(args);
            assertArrayEquals(args, call.input().readAllBytes());
        }
        // Without an opcode the request goes as given: its first 4 bytes are the opcode.
        assertArrayEquals(args, conn.call(new byte[] {0, 0, 0, OP_ECHO, 'a', 'b', 'c'}));
    }

    @Test
    void theTypedFormsRefuseASecondOpcode() {
        RxConnection conn = client.connect(server.localAddress(), SERVICE);
        RxCallOptions withOpcode = RxCallOptions.DEFAULT.withOpcode(OP_ECHO);
        assertThrows(IllegalArgumentException.class, () -> conn.call(OP_ECHO, w -> { }, XdrReader::readInt,
                withOpcode));
        assertThrows(IllegalArgumentException.class, () -> conn.callAsync(OP_ECHO, w -> { }, XdrReader::readInt,
                withOpcode));
    }

    @Test
    void aPoolAndAConnectionAnswerEveryFormAlike() throws Exception {
        try (RxConnectionPool pool = RxConnectionPool.open(client, server.localAddress(), SERVICE)) {
            for (RxCallTarget target : new RxCallTarget[] {pool, client.connect(server.localAddress(), SERVICE)}) {
                byte[] whole = {0, 0, 0, OP_ECHO, 1, 2, 3, 4};
                assertArrayEquals(new byte[] {1, 2, 3, 4}, target.call(whole), target.toString());
                assertArrayEquals(new byte[] {1, 2, 3, 4}, target.callAsync(whole).get(20, TimeUnit.SECONDS));
                int v = target.call(OP_ECHO, w -> w.writeInt(42), XdrReader::readInt);
                assertEquals(42, v);
                assertEquals(43, target.callAsync(OP_ECHO, w -> w.writeInt(43), XdrReader::readInt,
                        RxCallOptions.timeout(Duration.ofSeconds(20))).get(20, TimeUnit.SECONDS));
                try (RxCall call = target.newCall()) {
                    call.output().write(whole);
                    assertArrayEquals(new byte[] {1, 2, 3, 4}, call.input().readAllBytes());
                }
            }
            assertTrue(pool.stats().opened() >= 1);
        }
    }
}
