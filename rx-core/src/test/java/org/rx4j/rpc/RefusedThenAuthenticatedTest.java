// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc;

import java.net.InetSocketAddress;
import java.security.SecureRandom;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.rx4j.rpc.errors.RxCodes;
import org.rx4j.rpc.errors.RxException;
import org.rx4j.security.rxkad.LocalAuth;
import org.rx4j.security.rxkad.RxkadClientSecurity;
import org.rx4j.security.rxkad.RxkadCredentials;
import org.rx4j.security.rxkad.RxkadLevel;
import org.rx4j.security.rxkad.RxkadServerSecurity;
import org.rx4j.security.rxkad.ServerKey;
import org.rx4j.testing.LeakCheckExtension;
import org.rx4j.testing.ManualClock;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * An rxnull call refused with −2 (the service offers rxkad only) must not slow the same client's first rxkad call to
 * that server: the server refused the first connection without proving the client reachable, so the rxkad
 * connection's tiny first request still needs the client's PING for the server's challenge to go out at once
 * (docs/robustness.md "Rule: unsolicited traffic, loops and amplification"). Both endpoints run on clocks that stand
 * still, so no retransmission or re-PING timer can fire: the call completes only if nothing waits for one (before,
 * it waited for the client's first resend, about 2 s of real time).
 */
@Timeout(60)
@ExtendWith(LeakCheckExtension.class)
class RefusedThenAuthenticatedTest {
    private static final int SERVICE = 736;

    @Test
    void theFirstRxkadCallAfterARefusedRxnullCallNeedsNoResend() throws Exception {
        ServerKey key = new ServerKey(ServerKey.RXKAD, 3, 0, new byte[] {1, 2, 4, 7, 8, 11, 13, 14});
        RxkadCredentials c = LocalAuth.fromKeys(List.of(key), new SecureRandom());
        RxEndpoint server = RxEndpoint.builder().clock(new ManualClock())
                .bind(new InetSocketAddress("127.0.0.1", 0)).open();
        RxEndpoint client = RxEndpoint.builder().clock(new ManualClock()).probeUnreachable(false)
                .bind(new InetSocketAddress("127.0.0.1", 0)).open();
        try {
            server.registerService(RxService.builder(SERVICE)
                    .securityClass(new RxkadServerSecurity(List.of(key), RxkadLevel.CLEAR))
                    .wholeStream(call -> call.output().write(call.input().readAllBytes())).build());
            RxException refused = assertThrows(RxException.class,
                    () -> client.connect(server.localAddress(), SERVICE).call(new byte[] {1}));
            assertEquals(RxCodes.RX_INVALID_OPERATION, refused.code());

            RxConnection rxkad = client.connect(server.localAddress(), SERVICE,
                    new RxkadClientSecurity(RxkadLevel.CLEAR, c.sessionKey(), c.kvno(), c.ticket()));
            assertArrayEquals(new byte[] {1}, rxkad.callAsync(new byte[] {1}).get(20, TimeUnit.SECONDS));
        } finally {
            client.close(0); // the clocks stand still: a grace period would never pass
            server.close(0);
        }
    }
}
