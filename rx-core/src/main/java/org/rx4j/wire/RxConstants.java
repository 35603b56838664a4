// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.wire;

/**
 * Sizes and limits fixed by the Rx wire format (see rx-wire-facts.md §1, §3, §4, §5).
 */
public final class RxConstants {
    /** Bytes in the Rx header that starts every packet. */
    public static final int HEADER_SIZE = 28;
    /** Offset of the packet type byte in the header (rx-wire-facts.md §3). */
    public static final int HEADER_TYPE_OFFSET = 20;
    /** Exact data bytes of every non-final jumbogram sub-packet (RX_JUMBOBUFFERSIZE). */
    public static final int JUMBO_BUFFER_SIZE = 1412;
    /** Bytes of the short header that precedes each jumbogram sub-packet after the first (RX_JUMBOHEADERSIZE). */
    public static final int JUMBO_HEADER_SIZE = 4;
    /** Stride between sub-packet starts in a jumbogram: 1412 + 4 bytes. */
    public static final int JUMBO_STRIDE = JUMBO_BUFFER_SIZE + JUMBO_HEADER_SIZE;
    /**
     * Most sub-packets one jumbogram can hold inside a 65,535-byte datagram: (65535 - 28) / 1416 + 1 = 47
     * (the kernel's RXRPC_MAX_NR_JUMBO is also 47). 47 fit only when the last sub-packet holds at most
     * 65535 - 28 - 46·1416 = 371 bytes (343 within IPv4's 65,507-byte UDP payload); with a full 1412-byte last
     * sub-packet the limit is {@link #MAX_FULL_JUMBO_PACKETS}.
     */
    public static final int MAX_JUMBO_PACKETS = (65535 - HEADER_SIZE) / JUMBO_STRIDE + 1;
    /**
     * Most sub-packets of a jumbogram whose last sub-packet is also a full 1412 bytes: 46, a 65,160-byte
     * datagram (28 + 45·1416 + 1412), which fits IPv4's 65,507-byte UDP payload.
     */
    public static final int MAX_FULL_JUMBO_PACKETS = (65507 - HEADER_SIZE - JUMBO_BUFFER_SIZE) / JUMBO_STRIDE + 1;
    /**
     * Most sub-packets OpenAFS puts in, and invites into, one jumbogram (RX_MAX_DGRAM_PACKETS, rx-wire-facts.md §4): what
     * it advertises where a route carries six unfragmented (a 9,000-byte interface).
     */
    public static final int MAX_DGRAM_PACKETS = 6;
    /**
     * IP fragments OpenAFS lets one jumbogram be cut into (RX_MAX_FRAGS, rx-wire-facts.md §4): on a 1,500-byte route
     * one 1,412-byte packet fits each fragment, hence its 4-packet jumbograms there.
     */
    public static final int MAX_FRAGS = 4;
    /** Fixed part of the ACK body before the soft-ack array, in bytes. */
    public static final int ACK_FIXED_SIZE = 18;
    /** Pad bytes between the soft-ack array and the trailer. */
    public static final int ACK_PAD_SIZE = 3;
    /** Maximum soft-ack array length and hard cap on any window (RX_MAXACKS), in packets. */
    public static final int MAX_ACKS = 255;
    /** Channels (concurrent calls) per connection (RX_MAXCALLS). */
    public static final int MAX_CALLS = 4;
    /** Mask of the channel bits in a cid. */
    public static final int CHANNEL_MASK = 3;
    /** Mask of the connection-id bits in a cid. */
    public static final int CID_MASK = ~CHANNEL_MASK;
    /** Epoch used by connectionless DEBUG, VERSION and NAT-ping packets. */
    public static final int DEBUG_EPOCH = 999;
    /** Body size of a VERSION reply (NUL-padded string). */
    public static final int VERSION_REPLY_SIZE = 65;
    /** Smallest packet every Rx host must accept (RX_MIN_PACKET_SIZE = 576 - 56), bytes. */
    public static final int MIN_PACKET_SIZE = 520;
    /** OpenAFS's packet size for remote peers (1500 - 56), bytes. */
    public static final int REMOTE_PACKET_SIZE = 1444;
    /** Largest Rx packet (header + data) OpenAFS handles (RX_MAX_PACKET_SIZE), bytes. */
    public static final int MAX_PACKET_SIZE = 16384;
    /** Largest datagram the decoder and encoder handle (the UDP length field's limit), bytes; IPv4 carries at most 65,507. */
    public static final int MAX_DATAGRAM_SIZE = 65535;
    /** Largest UDP payload over IPv4 (65,535 − 20-byte IP header − 8-byte UDP header), bytes. */
    public static final int MAX_UDP_PAYLOAD_IPV4 = 65507;
    /** Largest UDP payload over IPv6 without jumbo payloads (65,535 − 8-byte UDP header), bytes. */
    public static final int MAX_UDP_PAYLOAD_IPV6 = 65527;
    /** IPv4 and UDP headers an Rx packet travels in, bytes (rxperf -4's RX_IPUDP_SIZE, §5). */
    public static final int IPV4_UDP_HEADERS = 28;
    /** IPv6 and UDP headers an Rx packet travels in, bytes. */
    public static final int IPV6_UDP_HEADERS = 48;

    private RxConstants() {
    }
}
