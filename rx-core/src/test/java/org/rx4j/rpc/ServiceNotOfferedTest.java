// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.rx4j.rpc.RxkadEndpointTest;
import org.rx4j.rpc.errors.RxCodes;
import org.rx4j.rpc.errors.RxException;
import org.rx4j.security.SecurityClass;
import org.rx4j.security.rxkad.RxkadLevel;
import org.rx4j.security.rxkad.RxkadServerSecurity;
import org.rx4j.security.rxkad.ServerKey;
import org.rx4j.testing.LeakCheckExtension;

/**
 * The server's raw ABORT −2 for a service id it does not serve, or a security class the service does not offer
 * (docs/errors.md "Unknown service or class not offered"): on an rxkad connection it arrives before any CHALLENGE,
 * which no handler's −2 can, and an rxnull probe of the same service id tells the two apart:
 * {@link RxException.Reason#UNKNOWN_SERVICE} or {@link RxException.Reason#SECURITY_CLASS_NOT_OFFERED} (blocking and
 * async forms; what the probe does on the wire is {@code ServiceProbeTest}'s). On an rxnull connection the same ABORT
 * looks like a handler's −2, so the probe asks with rxnull first (acknowledged: the handler's, {@link
 * RxException.Reason#PEER}) and then with rxkad; a handler's −2 after the rxkad handshake is {@link
 * RxException.Reason#PEER} at once.
 */
@Timeout(60)
@ExtendWith(LeakCheckExtension.class)
class ServiceNotOfferedTest {
    static final int RXNULL_ONLY = 741;
    static final int RXKAD_ONLY = 742;
    static final int UNKNOWN = 743;
    static final int RXNULL_THROWS = 744;

    RxEndpoint server;
    RxEndpoint client;

    @BeforeEach
    void start() throws Exception {
        server = RxEndpoint.builder().bind(new InetSocketAddress("127.0.0.1", 0)).open();
        server.registerService(RxService.builder(RXNULL_ONLY).async(1, req -> CompletableFuture.completedFuture(
                new byte[0])).build());
        server.registerService(RxService.builder(RXNULL_THROWS).blocking(1, (call, op) -> {
            throw new IllegalStateException("a handler's own -2");
        }).build());
        RxkadServerSecurity rxkad = new RxkadServerSecurity(List.of(new ServerKey(ServerKey.RXKAD,
                RxkadEndpointTest.KVNO, 0, RxkadEndpointTest.SERVER_KEY)), RxkadLevel.CLEAR);
        server.registerService(RxService.builder(RXKAD_ONLY).securityClass(rxkad)
                .blocking(1, (call, op) -> {
                    throw new IllegalStateException("a handler's own -2");
                }).build());
        client = RxEndpoint.builder().bind(new InetSocketAddress("127.0.0.1", 0)).open();
    }

    @AfterEach
    void stop() {
        client.close();
        server.close();
    }

    private RxException blocking(int service, SecurityClass sc) throws Exception {
        RxConnection conn = client.connect(server.localAddress(), service, sc);
        return assertThrows(RxException.class, () -> conn.call(new byte[] {0, 0, 0, 1}));
    }

    private RxException async(int service, SecurityClass sc) throws Exception {
        RxConnection conn = client.connect(server.localAddress(), service, sc);
        ExecutionException e = assertThrows(ExecutionException.class,
                () -> conn.callAsync(new byte[] {0, 0, 0, 1}).get(30, TimeUnit.SECONDS));
        return assertInstanceOf(RxException.class, e.getCause());
    }

    private static void refused(RxException e, RxException.Reason reason, String words, String detail) {
        assertEquals(RxCodes.RX_INVALID_OPERATION, e.code());
        assertTrue(e.remote());
        assertEquals(reason, e.reason(), e.getMessage());
        assertTrue(e.getMessage().startsWith("call aborted by peer (" + words + "): RX_INVALID_OPERATION (-2)"),
                e.getMessage());
        assertTrue(e.getMessage().contains(detail), e.getMessage());
    }

    @Test
    void rxkadAgainstAnRxnullOnlyServiceIsAClassNotOffered() throws Exception {
        for (RxException e : new RxException[] {
                blocking(RXNULL_ONLY, RxkadEndpointTest.credentials(RxkadLevel.CLEAR)),
                async(RXNULL_ONLY, RxkadEndpointTest.credentials(RxkadLevel.CLEAR))}) {
            refused(e, RxException.Reason.SECURITY_CLASS_NOT_OFFERED, "security class not offered",
                    "serves this service id, but not with this security class");
        }
    }

    @Test
    void rxkadToAnUnknownServiceIsAnUnknownService() throws Exception {
        for (RxException e : new RxException[] {
                blocking(UNKNOWN, RxkadEndpointTest.credentials(RxkadLevel.CLEAR)),
                async(UNKNOWN, RxkadEndpointTest.credentials(RxkadLevel.CLEAR))}) {
            refused(e, RxException.Reason.UNKNOWN_SERVICE, "unknown service", "serves no such service id");
        }
    }

    /** Later calls on the same connection get the first probe's verdict without probing again. */
    @Test
    void laterCallsOfTheConnectionKeepTheVerdict() throws Exception {
        RxConnection conn = client.connect(server.localAddress(), UNKNOWN,
                RxkadEndpointTest.credentials(RxkadLevel.CLEAR));
        for (int i = 0; i < 3; i++) {
            RxException e = assertThrows(RxException.class, () -> conn.call(new byte[] {0, 0, 0, 1}));
            assertEquals(RxException.Reason.UNKNOWN_SERVICE, e.reason(), e.getMessage());
        }
    }

    @Test
    void onRxnullTheProbesTellAnUnknownServiceFromAClassNotOffered() throws Exception {
        refused(blocking(UNKNOWN, org.rx4j.security.RxNullSecurityClass.INSTANCE), RxException.Reason.UNKNOWN_SERVICE,
                "unknown service", "serves no such service id");
        refused(async(RXKAD_ONLY, org.rx4j.security.RxNullSecurityClass.INSTANCE),
                RxException.Reason.SECURITY_CLASS_NOT_OFFERED, "security class not offered",
                "serves this service id, but not with this security class");
    }

    /** On rxnull a handler's −2 on a connection's first call is the peer's: the rxnull probe finds the service. */
    @Test
    void onRxnullAHandlersMinusTwoIsThePeers() throws Exception {
        RxException e = blocking(RXNULL_THROWS, org.rx4j.security.RxNullSecurityClass.INSTANCE);
        assertEquals(RxCodes.RX_INVALID_OPERATION, e.code());
        assertTrue(e.remote());
        assertEquals(RxException.Reason.PEER, e.reason(), e.getMessage());
    }

    @Test
    void aHandlersMinusTwoAfterTheHandshakeIsThePeers() throws Exception {
        RxException e = blocking(RXKAD_ONLY, RxkadEndpointTest.credentials(RxkadLevel.CLEAR));
        assertEquals(RxCodes.RX_INVALID_OPERATION, e.code());
        assertTrue(e.remote());
        assertEquals(RxException.Reason.PEER, e.reason());
    }
}
