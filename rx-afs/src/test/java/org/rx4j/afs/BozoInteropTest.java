// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.afs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.rx4j.afs.bozo.BozoClient;
import org.rx4j.afs.bozo.BozoGetStatusResult;
import org.rx4j.afs.bozo.BzErrors;
import org.rx4j.rpc.RxEndpoint;
import org.rx4j.rpc.errors.RxException;
import org.rx4j.security.RxNullSecurityClass;

/**
 * The BOZO stubs generated from rx4j's bozo.xg against a real OpenAFS bosserver. Skipped unless
 * {@code -Drx4j.bos.server=127.0.0.1:7007} names a running {@code bosserver -noauth} of the throwaway cell
 * {@code scripts/interop/bosserver.sh} sets up ({@code -Drx4j.bos.cell}, default {@code interop.rx4j.test},
 * whose one database host is {@code localhost}).
 */
@Timeout(60)
class BozoInteropTest {
    private static RxEndpoint endpoint;
    private static BozoClient bos;

    @BeforeAll
    static void connect() throws Exception {
        String server = System.getProperty("rx4j.bos.server", "");
        assumeTrue(!server.isBlank(), "no bosserver given (-Drx4j.bos.server=127.0.0.1:7007)");
        int colon = server.lastIndexOf(':');
        InetSocketAddress address = new InetSocketAddress(InetAddress.getByName(server.substring(0, colon)),
                Integer.parseInt(server.substring(colon + 1)));
        endpoint = RxEndpoint.builder().bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0)).open();
        bos = BozoClient.connect(endpoint, address, 1, RxNullSecurityClass.INSTANCE);
    }

    @AfterAll
    static void close() {
        if (endpoint != null) {
            endpoint.close();
        }
    }

    @Test
    void cellNameAndHostsAsBosListhostsShowsThem() throws Exception {
        assertEquals(System.getProperty("rx4j.bos.cell", "interop.rx4j.test"), bos.getCellName(Duration.ofSeconds(30)));
        List<String> hosts = new ArrayList<>();
        for (int i = 0; i < 64; i++) {
            try {
                hosts.add(bos.getCellHostAsync(i).get());
            } catch (java.util.concurrent.ExecutionException e) {
                RxException rx = (RxException) e.getCause();
                assertEquals(BzErrors.BZDOM, rx.code(), rx.getMessage());
                assertTrue(rx.remote());
                break;
            }
        }
        assertFalse(hosts.isEmpty());
        assertEquals("localhost", hosts.get(0));
    }

    @Test
    void unknownInstanceIsBznoent() {
        RxException e = assertThrows(RxException.class, () -> {
            BozoGetStatusResult r = bos.getStatus("no-such-instance");
            throw new AssertionError("status of a missing instance: " + r);
        });
        assertEquals("BZNOENT (39425): no such bosserver instance", BzErrors.describe(e.code()));
        assertTrue(e.getMessage().startsWith("BOZO_GetStatus (opcode 83): "), e.getMessage());
    }
}
