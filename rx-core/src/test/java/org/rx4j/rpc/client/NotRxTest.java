// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc.client;

import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.rx4j.config.RxConfig;
import org.rx4j.counters.RxCounter;
import org.rx4j.rpc.RxConnection;
import org.rx4j.rpc.RxEndpoint;
import org.rx4j.rpc.errors.RxCodes;
import org.rx4j.rpc.errors.RxException;
import org.rx4j.testing.LeakCheckExtension;
import org.rx4j.testing.ManualClock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A call to a UDP port where another service answers with bytes that are not Rx dies of the dead time as before
 * (RX_CALL_DEAD −1), but says what happened: reason NOT_RX, not NO_ANSWER (docs/errors.md "Local reasons"). The client
 * runs on a clock that stands still until the garbage has been counted; then the clock passes the dead time.
 */
@Timeout(60)
@ExtendWith(LeakCheckExtension.class)
class NotRxTest {
    @Test
    void aPortAnsweringGarbageIsNamed() throws Exception {
        ManualClock clock = new ManualClock();
        RxConfig config = RxConfig.builder().deadTime(Duration.ofSeconds(1)).build();
        byte[] garbage = "not an Rx reply\r\n".getBytes(StandardCharsets.US_ASCII); // shorter than an Rx header
        try (DatagramSocket other = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
            Thread answering = new Thread(() -> {
                byte[] buf = new byte[2048];
                try {
                    while (true) { // answers every datagram with text, as a non-Rx service might
                        DatagramPacket in = new DatagramPacket(buf, buf.length);
                        other.receive(in);
                        other.send(new DatagramPacket(garbage, garbage.length, in.getSocketAddress()));
                    }
                } catch (java.io.IOException closed) {
                    // the socket closed: the test is over
                }
            }, "not-rx-service");
            answering.setDaemon(true);
            answering.start();
            RxEndpoint client = RxEndpoint.builder().config(config).clock(clock).probeUnreachable(false)
                    .bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0)).open();
            try {
                RxConnection conn = client.connect((InetSocketAddress) other.getLocalSocketAddress(), 4242);
                CompletableFuture<byte[]> f = conn.callAsync(new byte[] {0, 0, 0, 1});
                long giveUp = System.nanoTime() + TimeUnit.SECONDS.toNanos(20); // a hang guard, not a timing
                while (client.statistics().totals().get(RxCounter.MALFORMED_DATAGRAMS) == 0 && System.nanoTime() < giveUp) {
                    Thread.onSpinWait(); // the client has not counted the answer yet
                }
                assertTrue(client.statistics().totals().get(RxCounter.MALFORMED_DATAGRAMS) > 0, "the answer was never counted");
                assertFalse(f.isDone());
                clock.advance(Duration.ofSeconds(2));
                ExecutionException e = assertThrows(ExecutionException.class, () -> f.get(20, TimeUnit.SECONDS));
                RxException rx = assertInstanceOf(RxException.class, e.getCause());
                assertEquals(RxCodes.RX_CALL_DEAD, rx.code());
                assertFalse(rx.remote());
                assertEquals(RxException.Reason.NOT_RX, rx.reason(), rx.getMessage());
                assertTrue(rx.getMessage().contains("not Rx"), rx.getMessage());
            } finally {
                client.close(0);
            }
        }
    }
}
