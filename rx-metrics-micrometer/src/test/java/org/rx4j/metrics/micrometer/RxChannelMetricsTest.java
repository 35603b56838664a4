// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.metrics.micrometer;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.InetSocketAddress;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.rx4j.rpc.RxEndpoint;
import org.rx4j.rpc.RxService;
import org.rx4j.rpc.channel.RxChannel;
import org.rx4j.rpc.channel.RxChannelConfig;
import org.rx4j.rpc.channel.RxRetryPolicy;
import org.rx4j.rpc.xdr.XdrReader;
import org.rx4j.rpc.xdr.XdrSide;
import org.rx4j.rpc.xdr.XdrWriter;
import org.rx4j.security.RxNullSecurityClass;
import org.rx4j.testing.LeakCheckExtension;
import org.rx4j.testing.ManualClock;

/**
 * {@link RxChannelMetrics} through a real Micrometer registry: a channel over a killed server and a live one; the
 * first call's attempt on the killed one fails (−1 at once: ICMP port unreachable) and is repeated on the live one,
 * which ejects the killed address (one failure ejects, here); the per-address meters read those counts back.
 */
@Timeout(60)
@ExtendWith(LeakCheckExtension.class)
class RxChannelMetricsTest {
    private static final int SERVICE = 4245;
    private static final int OP_WHO = 1;

    @Test
    void perAddressMetersReadTheChannelsCounts() throws Exception {
        InetSocketAddress dead;
        try (RxEndpoint gone = RxEndpoint.builder().bind(new InetSocketAddress("127.0.0.1", 0)).open()) {
            dead = gone.localAddress();
        }
        RxService service = RxService.builder(SERVICE)
                .blocking(OP_WHO, (call, opcode) -> new XdrWriter(call.output(), XdrSide.SERVER).writeInt(7))
                .build();
        RxChannelConfig config = RxChannelConfig.builder().consecutiveFailures(1).ticker(new ManualClock())
                .retry(RxRetryPolicy.idempotent(OP_WHO).noBackoff()).build();
        try (RxEndpoint server = RxEndpoint.builder().bind(new InetSocketAddress("127.0.0.1", 0)).service(service)
                     .open();
             RxEndpoint client = RxEndpoint.builder().bind(new InetSocketAddress("127.0.0.1", 0)).open();
             RxChannel channel = RxChannel.open(client, List.of(dead, server.localAddress()), SERVICE,
                     RxNullSecurityClass.INSTANCE, config)) {
            MeterRegistry registry = new SimpleMeterRegistry();
            new RxChannelMetrics(channel, Tags.of("channel", "who")).bindTo(registry);
            for (int i = 0; i < 3; i++) {
                assertEquals(7, (int) channel.call(OP_WHO, w -> { }, XdrReader::readInt));
            }
            String deadTag = "127.0.0.1:" + dead.getPort();
            String liveTag = "127.0.0.1:" + server.localAddress().getPort();
            assertEquals(3, registry.get(RxChannelMetrics.CALLS).tag("channel", "who")
                    .tag("service", Integer.toString(SERVICE)).functionCounter().count());
            assertEquals(1, registry.get(RxChannelMetrics.RETRIES).functionCounter().count());
            assertEquals(0, registry.get(RxChannelMetrics.RETRIES_REFUSED).functionCounter().count());
            assertEquals(1, registry.get(RxChannelMetrics.ATTEMPTS).tag("address", deadTag).functionCounter().count());
            assertEquals(3, registry.get(RxChannelMetrics.ATTEMPTS).tag("address", liveTag).functionCounter().count());
            assertEquals(1, registry.get(RxChannelMetrics.FAILURES).tag("address", deadTag).functionCounter().count());
            assertEquals(0, registry.get(RxChannelMetrics.FAILURES).tag("address", liveTag).functionCounter().count());
            assertEquals(1, registry.get(RxChannelMetrics.EJECTIONS).tag("address", deadTag).functionCounter()
                    .count());
            assertEquals(1, registry.get(RxChannelMetrics.EJECTED).tag("address", deadTag).gauge().value());
            assertEquals(0, registry.get(RxChannelMetrics.EJECTED).tag("address", liveTag).gauge().value());
            assertEquals(0, registry.get(RxChannelMetrics.OUTSTANDING).tag("address", liveTag).gauge().value());
        }
    }

    @Test
    void ipv6AddressesAreBracketed() throws Exception {
        assertEquals("[0:0:0:0:0:0:0:1]:7000", RxChannelMetrics.address(new InetSocketAddress("::1", 7000)));
        assertEquals("10.0.0.1:7003", RxChannelMetrics.address(new InetSocketAddress("10.0.0.1", 7003)));
    }
}
