// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.net.InetAddress;
import java.net.InterfaceAddress;
import java.net.NetworkInterface;
import java.util.Collections;
import org.junit.jupiter.api.Test;

/** {@link RouteMtus} on this host's real interfaces (docs/transport.md "Packet size and the route"). */
class RouteMtusTest {
    private final RouteMtus routes = new RouteMtus();

    private static int loopbackMtu() throws Exception {
        NetworkInterface lo = NetworkInterface.getByInetAddress(InetAddress.getByName("127.0.0.1"));
        assumeTrue(lo != null && lo.isUp(), "no loopback interface");
        return lo.getMTU();
    }

    @Test
    void loopbackAddressesGoOverTheLoopbackInterface() throws Exception {
        int lo = loopbackMtu();
        assertEquals(lo, routes.mtuFor(InetAddress.getByName("127.0.0.1")));
        assertEquals(lo, routes.mtuFor(InetAddress.getByName("127.3.2.1")), "all of 127/8");
    }

    @Test
    void theDefaultRouteIsReadFromLinuxRouteTables() {
        String v4 = """
                Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT
                eth1\t00000000\t010200C0\t0003\t0\t0\t600\t00000000\t0\t0\t0
                eth0\t00000000\t010200C0\t0003\t0\t0\t100\t00000000\t0\t0\t0
                eth0\t000200C0\t00000000\t0001\t0\t0\t0\t00FFFFFF\t0\t0\t0
                """;
        assertEquals("eth0", RouteMtus.defaultInterface(v4, false), "the lowest metric wins");
        String v6 = """
                00000000000000000000000000000000 00 00000000000000000000000000000000 00 fd000000000000000000000000000001 00000400 00000003 00000000 00000003     eth0
                00000000000000000000000000000000 00 00000000000000000000000000000000 00 00000000000000000000000000000000 ffffffff 00000001 00000000 00200200       lo
                """;
        assertEquals("eth0", RouteMtus.defaultInterface(v6, true), "the unreachable default on lo routes nothing");
        assertEquals(null, RouteMtus.defaultInterface("Iface\tDestination\n", false), "no default route");
    }

    @Test
    void anAddressBehindARouterGoesOutOfTheDefaultRoutesInterface() throws Exception {
        // TEST-NET-3 (RFC 5737): documentation addresses, on a local subnet only on an odd test machine.
        for (NetworkInterface nif : Collections.list(NetworkInterface.getNetworkInterfaces())) {
            for (InterfaceAddress ia : nif.getInterfaceAddresses()) {
                assumeTrue(!ia.getAddress().getHostAddress().startsWith("203.0.113."), "203.0.113/24 is local here");
            }
        }
        int got = routes.mtuFor(InetAddress.getByName("203.0.113.77"));
        if (got != 0) {
            boolean someInterface = false;
            for (NetworkInterface nif : Collections.list(NetworkInterface.getNetworkInterfaces())) {
                someInterface |= nif.isUp() && !nif.isLoopback() && nif.getMTU() == got;
            }
            assertTrue(someInterface, "the MTU of an interface that is up: " + got);
        }
    }

    @Test
    void ownAndSubnetAddressesUseTheirInterface() throws Exception {
        int lo = loopbackMtu();
        for (NetworkInterface nif : Collections.list(NetworkInterface.getNetworkInterfaces())) {
            if (!nif.isUp() || nif.isLoopback()) {
                continue;
            }
            for (InterfaceAddress ia : nif.getInterfaceAddresses()) {
                byte[] a = ia.getAddress().getAddress();
                if (a.length != 4 || ia.getNetworkPrefixLength() > 30) {
                    continue;
                }
                assertEquals(lo, routes.mtuFor(ia.getAddress()), "our own address goes over loopback");
                byte[] neighbour = a.clone();
                neighbour[3] ^= 1; // same /30 or wider subnet, not our address
                assertEquals(nif.getMTU(), routes.mtuFor(InetAddress.getByAddress(neighbour)),
                        "a neighbour on " + nif.getName());
                return;
            }
        }
        assumeTrue(false, "no IPv4 interface besides loopback");
    }
}
