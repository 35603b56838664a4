// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;

/**
 * Sends one hand-made Rx DEBUG request (rx-wire-facts.md §9) and prints the reply, so the interop
 * harness can ask for a debug type rxdebug never sends. A single-file program for the JDK's source
 * launcher (no build, nothing but the JDK):
 *
 * <pre>
 *   java scripts/interop/DebugProbe.java HOST PORT TYPE [--no-client-initiated] [--wait-ms MS]
 * </pre>
 *
 * <p>The request is a 28-byte Rx header (epoch 999, cid 0, callNumber 4711, seq 0, serial 0, type 8
 * DEBUG, flags 0x05 CLIENT_INITIATED|LAST_PACKET, or 0x04 with {@code --no-client-initiated}; every other
 * field 0, as rxdebug sends) and an 8-byte body: int32 TYPE, int32 index 0, big-endian.
 *
 * <p>Output, one line: {@code reply: epoch 999 cid 0 callNumber 4711 type 8 flags 0x04 body 8 bytes: -8 -8}
 * (the body as big-endian int32 values, at most 16 of them, then {@code ...}), or
 * {@code no reply within MS ms}. Exit status 0 when a reply came, 1 when none came within the wait
 * (default 2000 ms; one request, no retries), 2 for bad arguments, 3 for a socket failure.
 */
public final class DebugProbe {
    private static final int HEADER_BYTES = 28;
    private static final int EPOCH = 999;
    private static final int CALL_NUMBER = 4711;
    private static final int TYPE_DEBUG = 8;
    private static final int FLAG_CLIENT_INITIATED = 0x01;
    private static final int FLAG_LAST_PACKET = 0x04;
    private static final int MAX_INTS_SHOWN = 16;

    private DebugProbe() {
    }

    /**
     * Runs the probe; see the class comment for arguments, output and exit status.
     *
     * @param args HOST PORT TYPE [--no-client-initiated] [--wait-ms MS]
     */
    public static void main(String[] args) {
        if (args.length < 3) {
            usage("missing arguments");
        }
        String host = args[0];
        int port = parse(args[1], "PORT", 1, 65535);
        int debugType = parse(args[2], "TYPE", Integer.MIN_VALUE, Integer.MAX_VALUE);
        int flags = FLAG_CLIENT_INITIATED | FLAG_LAST_PACKET;
        int waitMs = 2000;
        for (int i = 3; i < args.length; i++) {
            if (args[i].equals("--no-client-initiated")) {
                flags = FLAG_LAST_PACKET;
            } else if (args[i].equals("--wait-ms") && i + 1 < args.length) {
                waitMs = parse(args[++i], "--wait-ms", 1, 60_000);
            } else {
                usage("unknown argument '" + args[i] + "'");
            }
        }
        try {
            System.exit(probe(new InetSocketAddress(InetAddress.getByName(host), port), debugType, flags, waitMs));
        } catch (IOException e) {
            System.err.println("DebugProbe: " + e);
            System.exit(3);
        }
    }

    /** Sends the request once and prints the reply; returns the exit status (0 reply, 1 none). */
    private static int probe(InetSocketAddress server, int debugType, int flags, int waitMs) throws IOException {
        byte[] request = request(debugType, flags);
        try (DatagramSocket socket = new DatagramSocket(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0))) {
            socket.setSoTimeout(waitMs);
            socket.send(new DatagramPacket(request, request.length, server));
            byte[] buffer = new byte[65535];
            long end = System.nanoTime() + waitMs * 1_000_000L;
            while (true) {
                DatagramPacket reply = new DatagramPacket(buffer, buffer.length);
                try {
                    socket.receive(reply);
                } catch (SocketTimeoutException e) {
                    System.out.println("no reply within " + waitMs + " ms");
                    return 1;
                }
                // Only a datagram from the server counts; anything else is ignored until the wait ends.
                if (reply.getSocketAddress().equals(server) && reply.getLength() >= HEADER_BYTES) {
                    System.out.println(describe(ByteBuffer.wrap(buffer, 0, reply.getLength())));
                    return 0;
                }
                long left = (end - System.nanoTime()) / 1_000_000L;
                if (left <= 0) {
                    System.out.println("no reply within " + waitMs + " ms");
                    return 1;
                }
                socket.setSoTimeout((int) left);
            }
        }
    }

    /** The 28-byte header (wire order: spare before serviceId) then int32 type, int32 index 0. */
    private static byte[] request(int debugType, int flags) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bytes);
        out.writeInt(EPOCH);
        out.writeInt(0);            // cid
        out.writeInt(CALL_NUMBER);
        out.writeInt(0);            // seq
        out.writeInt(0);            // serial
        out.writeByte(TYPE_DEBUG);
        out.writeByte(flags);
        out.writeByte(0);           // userStatus
        out.writeByte(0);           // securityIndex
        out.writeShort(0);          // spare
        out.writeShort(0);          // serviceId
        out.writeInt(debugType);
        out.writeInt(0);            // index
        return bytes.toByteArray();
    }

    private static String describe(ByteBuffer reply) {
        StringBuilder line = new StringBuilder("reply:");
        line.append(" epoch ").append(Integer.toUnsignedString(reply.getInt(0)));
        line.append(" cid ").append(Integer.toUnsignedString(reply.getInt(4)));
        line.append(" callNumber ").append(Integer.toUnsignedString(reply.getInt(8)));
        line.append(" type ").append(reply.get(20) & 0xFF);
        line.append(" flags 0x").append(String.format("%02x", reply.get(21) & 0xFF));
        int bodyBytes = reply.limit() - HEADER_BYTES;
        line.append(" body ").append(bodyBytes).append(" bytes:");
        int ints = bodyBytes / 4;
        for (int i = 0; i < Math.min(ints, MAX_INTS_SHOWN); i++) {
            line.append(' ').append(reply.getInt(HEADER_BYTES + 4 * i));
        }
        if (ints > MAX_INTS_SHOWN || bodyBytes % 4 != 0) {
            line.append(" ...");
        }
        return line.toString();
    }

    private static int parse(String text, String what, int min, int max) {
        try {
            long value = Long.parseLong(text);
            if (value >= min && value <= max) {
                return (int) value;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        usage(what + " must be a number in " + min + ".." + max + ": '" + text + "'");
        return 0;
    }

    private static void usage(String problem) {
        System.err.println("DebugProbe: " + problem);
        System.err.println("usage: java DebugProbe.java HOST PORT TYPE [--no-client-initiated] [--wait-ms MS]");
        System.exit(2);
    }
}
