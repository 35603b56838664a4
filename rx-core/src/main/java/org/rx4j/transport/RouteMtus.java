// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.transport;

import java.io.IOException;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InterfaceAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Enumeration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The MTU of the local interface a peer is reached by, from a snapshot of this host's interfaces (docs/transport.md
 * "Packet size and the route"; docs/engine.md "Packet size"): a loopback address, or one of this host's own addresses,
 * goes over loopback; an address inside one of an interface's subnets goes out of that interface (the longest prefix
 * wins); anything else is behind a router and goes out of the default route's interface (Linux's
 * {@code /proc/net/route} and {@code /proc/net/ipv6_route}), or is unknown (0) where there is none or it cannot be
 * read. No system call per lookup: the snapshot is taken when the transport starts and again at most once a minute
 * when a new peer is looked up. Thread-safe (the engine asks on its loop, an owner may ask from any thread).
 */
final class RouteMtus {
    private static final long REFRESH_NS = TimeUnit.SECONDS.toNanos(60);

    private record Subnet(byte[] address, int prefixLength, int mtu, boolean loopback) {
    }

    private List<Subnet> subnets;
    private int loopbackMtu;
    /** MTU of the default route's interface, bytes, for IPv4 and IPv6 peers; 0 = none known. */
    private int defaultMtuV4;
    private int defaultMtuV6;
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
    synchronized int mtuFor(InetAddress peer) {
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
        if (best >= 0) {
            return mtu;
        }
        return want.length == 4 ? defaultMtuV4 : defaultMtuV6;
    }

    /**
     * @param table the text of /proc/net/route (IPv4) or /proc/net/ipv6_route (IPv6)
     * @param ipv6 which of the two it is
     * @return the interface name of the usable default route with the lowest metric, or null
     */
    static String defaultInterface(String table, boolean ipv6) {
        String found = null;
        long bestMetric = Long.MAX_VALUE;
        for (String line : table.split("\\R")) {
            String[] f = line.trim().split("\\s+");
            String iface;
            long flags;
            long metric;
            if (!ipv6) {
                // Iface Destination Gateway Flags RefCnt Use Metric Mask ...
                if (f.length < 8 || !f[1].equals("00000000") || !f[7].equals("00000000")) {
                    continue;
                }
                iface = f[0];
                flags = parseHex(f[3]);
                metric = parseDecimal(f[6]);
            } else {
                // dest prefixlen src srclen nexthop metric refcnt use flags iface
                if (f.length < 10 || !f[0].equals("00000000000000000000000000000000") || !f[1].equals("00")) {
                    continue;
                }
                iface = f[9];
                flags = parseHex(f[8]);
                metric = parseHex(f[5]);
            }
            // RTF_UP (0x1) and not RTF_REJECT (0x200): an unreachable default (IPv6's on lo) routes nothing.
            if ((flags & 0x1) == 0 || (flags & 0x200) != 0 || metric < 0 || metric >= bestMetric) {
                continue;
            }
            bestMetric = metric;
            found = iface;
        }
        return found;
    }

    private static long parseDecimal(String s) {
        try {
            return Long.parseLong(s);
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private static long parseHex(String s) {
        try {
            return Long.parseLong(s, 16);
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private static int defaultMtu(String path, boolean ipv6) {
        try {
            String iface = defaultInterface(Files.readString(Path.of(path)), ipv6);
            NetworkInterface nif = iface == null ? null : NetworkInterface.getByName(iface);
            return nif != null && nif.isUp() ? Math.max(0, nif.getMTU()) : 0;
        } catch (IOException | RuntimeException e) {
            return 0; // not Linux, or no such file: routed peers get OpenAFS's Ethernet-size packets
        }
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
        defaultMtuV4 = defaultMtu("/proc/net/route", false);
        defaultMtuV6 = defaultMtu("/proc/net/ipv6_route", true);
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
