// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.perf.path;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.rx4j.relay.ImpairmentRelay;
import org.rx4j.relay.RelayStats;
import org.rx4j.relay.core.DirectionStats;
import org.rx4j.relay.core.DropReason;
import org.rx4j.relay.core.Impairment;
import org.rx4j.rpc.RxCall;
import org.rx4j.rpc.RxConnection;
import org.rx4j.rpc.RxEndpoint;
import org.rx4j.rpc.RxService;
import org.rx4j.testing.LeakCheckExtension;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Packet size on a real path narrower than the route (docs/engine.md "Packet size"): two rx4j endpoints on loopback
 * (route MTU 65,536, so both advertise 65,507-byte packets) talk through the impairment relay, which drops every
 * datagram above 9,000 bytes in both directions. The large probes that do not fit are dropped, the 8,972-byte step is
 * proven, and a call's data then travels in packets larger than any jumbogram of 1,412-byte packets could be, first
 * upward (the client's request), then downward (the server's reply); every byte is checked. Counts only, no timing.
 */
@ExtendWith(LeakCheckExtension.class)
@Timeout(120)
class LargePacketsThroughRelayTest {
    private static final int SVC = 4343;
    private static final int BYTES = 8 << 20;
    private static final int CAP = 9000;
    /** The largest datagram a jumbogram of four 1,412-byte packets makes (OpenAFS's default), bytes. */
    private static final int LARGEST_JUMBOGRAM = 5692;

    private static byte pattern(long i) {
        return (byte) (i % 251);
    }

    private static void serve(RxCall call) throws IOException {
        InputStream in = call.input();
        int mode = in.read();
        if (mode == 1) { // upward: count and check the request
            byte[] buf = new byte[65536];
            long pos = 0;
            long bad = 0;
            int n;
            while ((n = in.read(buf)) > 0) {
                for (int i = 0; i < n; i++) {
                    bad += buf[i] == pattern(pos + i) ? 0 : 1;
                }
                pos += n;
            }
            call.output().write(ByteBuffer.allocate(16).putLong(pos).putLong(bad).array());
        } else { // downward: BYTES of pattern
            byte[] out = new byte[BYTES];
            for (int i = 0; i < out.length; i++) {
                out[i] = pattern(i);
            }
            call.output().write(out);
        }
    }

    @Test
    void bothDirectionsProveAndUseTheLargestSizeTheRelayCarries() throws Exception {
        InetAddress lo = InetAddress.getByName("127.0.0.1");
        try (RxEndpoint server = RxEndpoint.builder().bind(new InetSocketAddress(lo, 0)).open();
             RxEndpoint client = RxEndpoint.builder().bind(new InetSocketAddress(lo, 0)).open()) {
            server.registerService(RxService.builder(SVC).wholeStream(LargePacketsThroughRelayTest::serve).build());
            try (ImpairmentRelay relay = ImpairmentRelay.builder()
                    .listen(new InetSocketAddress(lo, 0))
                    .target(server.localAddress())
                    .both(Impairment.builder().mtuBytes(CAP).build())
                    .seed(7).start()) {
                RxConnection conn = client.connect(relay.listenAddress(), SVC);
                byte[] request = new byte[1 + BYTES];
                request[0] = 1;
                for (int i = 0; i < BYTES; i++) {
                    request[1 + i] = pattern(i);
                }
                // The first call proves the size; the second one's request travels at it.
                for (int call = 0; call < 2; call++) {
                    ByteBuffer reply = ByteBuffer.wrap(conn.call(request));
                    assertEquals(BYTES, reply.getLong(), "request bytes the server read");
                    assertEquals(0, reply.getLong(), "request bytes that differ");
                }
                DirectionStats upAfterSend = relay.stats().upstream();
                for (int call = 0; call < 2; call++) {
                    byte[] got = conn.call(new byte[] {2});
                    assertEquals(BYTES, got.length);
                    for (int i = 0; i < got.length; i++) {
                        if (got[i] != pattern(i)) {
                            throw new AssertionError("reply byte " + i + " differs");
                        }
                    }
                }
                RelayStats stats = relay.stats();
                System.out.printf("relay MTU %d: %s%n", CAP, stats);
                assertTrue(upAfterSend.dropped(DropReason.MTU) >= 1, "the client's larger probes were dropped");
                assertTrue(stats.downstream().dropped(DropReason.MTU) >= 1, "so were the server's");
                assertTrue(upAfterSend.outBytes() / upAfterSend.outDatagrams() > LARGEST_JUMBOGRAM,
                        "upward datagrams average more than any jumbogram: " + upAfterSend);
                DirectionStats down = stats.downstream();
                assertTrue(down.outBytes() / down.outDatagrams() > LARGEST_JUMBOGRAM,
                        "downward datagrams average more than any jumbogram: " + down);
            }
        }
    }
}
