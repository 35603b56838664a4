package org.rx4j.config;

import org.rx4j.wire.RxConstants;

/**
 * How large the packets and datagrams of this endpoint may be, and what the ACK trailer advertises about them
 * (rx-wire-facts.md §4 "Jumbograms" and §5 "Sizes and windows"; docs/engine.md "Packet size").
 *
 * @param jumboMax most jumbogram sub-packets advertised and sent, 1..46 (default 4); 1 = no jumbograms (rxperf -j)
 * @param maxMtu largest Rx packet (header + data) this endpoint sends or accepts in one piece, bytes, 520..65535
 *     (default 16384; rxperf -m allows 520..16356)
 * @param ifMtu interface MTU less IP/UDP overhead advertised in the ACK trailer, bytes, 520..65535 (default 1444)
 */
public record PacketSize(int jumboMax, int maxMtu, int ifMtu) {
    /** Four-packet jumbograms on a 1500-byte Ethernet path, as OpenAFS 1.8 sends them. */
    public static final PacketSize DEFAULTS = new PacketSize(4, 16384, 1444);

    /**
     * Checks the ranges listed with the components.
     *
     * @throws IllegalArgumentException naming the first setting out of range
     */
    public PacketSize {
        SettingCheck.range("jumboMax", jumboMax, 1, 46);
        SettingCheck.range("maxMtu", maxMtu, 520, 65535);
        SettingCheck.range("ifMtu", ifMtu, 520, 65535);
    }

    /** @return data bytes per DATA packet: 1412 with jumbograms, else min(maxMtu, ifMtu) - 28 */
    public int packetDataSize() {
        int mtu = Math.min(maxMtu, ifMtu);
        if (jumboMax > 1 && mtu >= 28 + 1412) {
            return 1412;
        }
        return mtu - 28;
    }

    /** @return maxMTU advertised in the ACK trailer: 1444 + (jumboMax-1)·1416 capped by maxMtu limits (5692 at 4) */
    public int advertisedMaxMtu() {
        if (jumboMax <= 1) {
            return Math.min(maxMtu, ifMtu);
        }
        return ifMtu + (jumboMax - 1) * 1416;
    }

    /**
     * Largest Rx packet (header + data) this endpoint sends in one piece to a peer that advertises room for it and
     * whose path a padded PING proved (docs/engine.md "Packet size"): min(maxMtu, ifMtu, 16384), 16384 being Rx's
     * largest packet (RX_MAX_PACKET_SIZE). Above {@link RxConstants#REMOTE_PACKET_SIZE} only when ifMtu says the
     * path is wider than an Ethernet one; with the defaults (ifMtu 1444) every packet stays at most 1444 bytes.
     *
     * @return bytes, 520..16384
     */
    public int largestPacket() {
        return Math.min(RxConstants.MAX_PACKET_SIZE, Math.min(maxMtu, ifMtu));
    }
}
