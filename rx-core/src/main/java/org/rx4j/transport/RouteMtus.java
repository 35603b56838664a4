package org.rx4j.transport;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InterfaceAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Enumeration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The MTU of the local interface a peer is reached by, from a snapshot of this host's interfaces (docs/transport.md
 * "Packet size and the route"; docs/engine.md "Packet size"): a loopback address, or one of this host's own addresses,
 * goes over loopback; an address inside one of an interface's subnets goes out of that interface (the longest prefix
 * wins); anything else is behind a router and unknown (0), so it gets OpenAFS's Ethernet-size packets, as OpenAFS's
 * own {@code rxi_InitPeerParams} decides only for local subnets. No system call per lookup: the snapshot is taken
 * when the transport starts and again at most once a minute when a new peer is looked up.
 */
final class RouteMtus {
    private static final long REFRESH_NS = TimeUnit.SECONDS.toNanos(60);

    private record Subnet(byte[] address, int prefixLength, int mtu, boolean loopback) {
    }

    private List<Subnet> subnets;
    private int loopbackMtu;
    private long takenNs;

    /** Takes the first snapshot of the interfaces (a few system calls). */
    RouteMtus() {
        refresh(System.nanoTime());
    }

    /**
     * @param peer the peer's address
     * @return the MTU of the interface the peer is reached by, bytes (IP packet size), or 0 when it lies behind a
     *     router or the interfaces cannot be read
     */
    int mtuFor(InetAddress peer) {
        long now = System.nanoTime();
        if (now - takenNs > REFRESH_NS) {
            refresh(now);
        }
        if (peer.isLoopbackAddress()) {
            return loopbackMtu;
        }
        byte[] want = peer.getAddress();
        int best = -1;
        int mtu = 0;
        for (Subnet s : subnets) {
            if (s.address.length != want.length) {
                continue;
            }
            if (Arrays.equals(s.address, want)) {
                return loopbackMtu > 0 ? loopbackMtu : s.mtu; // our own address: Linux routes it over loopback
            }
            if (!s.loopback && s.prefixLength > best && samePrefix(s.address, want, s.prefixLength)) {
                best = s.prefixLength;
                mtu = s.mtu;
            }
        }
        return mtu;
    }

    private void refresh(long now) {
        takenNs = now;
        List<Subnet> found = new ArrayList<>();
        int lo = 0;
        try {
            Enumeration<NetworkInterface> all = NetworkInterface.getNetworkInterfaces();
            while (all != null && all.hasMoreElements()) {
                NetworkInterface nif = all.nextElement();
                if (!nif.isUp()) {
                    continue;
                }
                int mtu = Math.max(0, nif.getMTU());
                boolean loopback = nif.isLoopback();
                if (loopback) {
                    lo = Math.max(lo, mtu);
                }
                for (InterfaceAddress ia : nif.getInterfaceAddresses()) {
                    InetAddress a = ia.getAddress();
                    int prefix = ia.getNetworkPrefixLength();
                    // Link-local IPv6 needs a scope to route; such peers count as unknown.
                    if (a instanceof Inet6Address v6 && v6.isLinkLocalAddress()) {
                        continue;
                    }
                    found.add(new Subnet(a.getAddress(), prefix, mtu, loopback));
                }
            }
        } catch (SocketException | RuntimeException e) {
            // An unreadable interface list leaves every peer at the Ethernet size: never worse than OpenAFS.
            found.clear();
            lo = 0;
        }
        subnets = List.copyOf(found);
        loopbackMtu = lo;
    }

    private static boolean samePrefix(byte[] a, byte[] b, int bits) {
        int full = bits / 8;
        for (int i = 0; i < full; i++) {
            if (a[i] != b[i]) {
                return false;
            }
        }
        int rest = bits % 8;
        if (rest == 0) {
            return true;
        }
        int mask = (0xFF << (8 - rest)) & 0xFF;
        return (a[full] & mask) == (b[full] & mask);
    }
}
