package org.rx4j.rpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.rx4j.config.RxConfig;
import org.rx4j.testing.LeakCheckExtension;

/**
 * A call to a loopback port where nothing listens (the kernel answers with ICMP port unreachable): rx4j does not act
 * on ICMP yet (docs/embedding.md, "A peer that does not answer"), so the call fails with RX_CALL_DEAD (−1) once the
 * dead time passes, never hangs and never succeeds; a lowered dead time is the documented way to fail sooner.
 * Asserts the outcome, not the elapsed time.
 */
@Timeout(60)
@ExtendWith(LeakCheckExtension.class)
class ClosedPortTest {
    @Test
    void callToAClosedPortFailsWithCallDead() throws Exception {
        InetSocketAddress closed;
        try (DatagramSocket s = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
            closed = (InetSocketAddress) s.getLocalSocketAddress(); // bound, then closed: nothing listens there
        }
        RxConfig config = RxConfig.builder().deadTime(Duration.ofSeconds(1)).initialRtt(Duration.ofMillis(100))
                .build();
        try (RxEndpoint client = RxEndpoint.builder().config(config)
                .bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0)).open()) {
            RxConnection conn = client.connect(closed, 4242, 0);
            ExecutionException e = assertThrows(ExecutionException.class,
                    () -> conn.callAsync(new byte[] {0, 0, 0, 1}).get(30, TimeUnit.SECONDS));
            RxException rx = assertInstanceOf(RxException.class, e.getCause());
            assertEquals(RxCodes.RX_CALL_DEAD, rx.code());
            assertFalse(rx.remote());
            RxException blocking = assertThrows(RxException.class, () -> conn.call(new byte[] {0, 0, 0, 1}));
            assertEquals(RxCodes.RX_CALL_DEAD, blocking.code());
        }
    }
}
