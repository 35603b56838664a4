package org.rx4j.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
    void anAddressBehindARouterIsUnknown() throws Exception {
        // TEST-NET-3 (RFC 5737): documentation addresses, on a local subnet only on an odd test machine.
        for (NetworkInterface nif : Collections.list(NetworkInterface.getNetworkInterfaces())) {
            for (InterfaceAddress ia : nif.getInterfaceAddresses()) {
                assumeTrue(!ia.getAddress().getHostAddress().startsWith("203.0.113."), "203.0.113/24 is local here");
            }
        }
        assertEquals(0, routes.mtuFor(InetAddress.getByName("203.0.113.77")));
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
