// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.perf.protocol;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.rx4j.perf.transport.RxperfAbortException;

/** The server half of rx-wire-facts.md §10, driven with byte arrays (no transport). */
class RxperfServerHandlerTest {
    private final List<String> log = new ArrayList<>();

    /** Builds a request: the 16-byte block, then int32 fields, then payload bytes. */
    private static byte[] request(int version, int command, int readSize, int writeSize, int[] fields, byte[] payload)
            throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bytes);  // big-endian, as XDR
        out.writeInt(version);
        out.writeInt(command);
        out.writeInt(readSize);
        out.writeInt(writeSize);
        for (int field : fields) {
            out.writeInt(field);
        }
        out.write(payload);
        return bytes.toByteArray();
    }

    private static byte[] pattern(int length) {
        byte[] bytes = new byte[length];
        for (int k = 0; k < length; k++) {
            bytes[k] = (byte) (k % 251);
        }
        return bytes;
    }

    private static byte[] cookie() {
        return ByteBuffer.allocate(4).putInt(0x00004711).array();
    }

    private byte[] serve(boolean verify, byte[] request) throws Exception {
        ByteArrayOutputStream reply = new ByteArrayOutputStream();
        new RxperfServerHandler(verify, log::add).handle(new ByteArrayInputStream(request), reply);
        return reply.toByteArray();
    }

    private int abortCode(boolean verify, byte[] request) {
        RxperfAbortException abort = assertThrows(RxperfAbortException.class, () -> serve(verify, request));
        return abort.code();
    }

    @Test
    void sendReadsNBytesAndRepliesWithTheCookieOnly() throws Exception {
        byte[] reply = serve(true, request(3, 0, 1000, 1000, new int[] {5000}, pattern(5000)));
        assertArrayEquals(cookie(), reply);
    }

    @Test
    void recvRepliesWithNPatternBytesThenTheCookie() throws Exception {
        byte[] reply = serve(false, request(3, 1, 7, 13, new int[] {3000}, new byte[0]));
        assertEquals(3004, reply.length);
        byte[] payload = java.util.Arrays.copyOf(reply, 3000);
        assertArrayEquals(pattern(3000), payload);
        assertArrayEquals(cookie(), java.util.Arrays.copyOfRange(reply, 3000, 3004));
    }

    @Test
    void rpcReadsSThenRepliesRBytesAndTheCookie() throws Exception {
        // the fact sheet's example: S=3, R=30
        byte[] reply = serve(true, request(3, 3, 524288, 524288, new int[] {3, 30}, pattern(3)));
        assertEquals(34, reply.length);
        assertArrayEquals(pattern(30), java.util.Arrays.copyOf(reply, 30));
        assertArrayEquals(cookie(), java.util.Arrays.copyOfRange(reply, 30, 34));
    }

    @Test
    void fileStartsReadingTogglesOnZeroAndSendsNoCookie() throws Exception {
        // words: read 4×3=12, toggle → send 4×5=20, send 4×2=8 ; the pattern continues across transfers
        int[] fields = {4, 3, 0, 5, 2};
        byte[] reply = serve(true, request(3, 4, 5, 3, fields, pattern(12)));
        assertArrayEquals(pattern(28), reply);
    }

    @Test
    void wrongVersionAbortsWithMinusOne() throws Exception {
        assertEquals(-1, abortCode(false, request(2, 0, 1000, 1000, new int[] {0}, new byte[0])));
        assertTrue(log.get(0).contains("wrong version 2"), log.toString());
    }

    @Test
    void oversizeChunksAbortWithMinusOne() throws Exception {
        assertEquals(-1, abortCode(false, request(3, 0, 524289, 1000, new int[] {0}, new byte[0])));
        assertEquals(-1, abortCode(false, request(3, 0, 1000, 524289, new int[] {0}, new byte[0])));
        assertEquals(-1, abortCode(false, request(3, 0, 0, 1000, new int[] {0}, new byte[0])));
    }

    @Test
    void unknownCommandAbortsWithMinusOne() throws Exception {
        assertEquals(-1, abortCode(false, request(3, 2, 1000, 1000, new int[] {0}, new byte[0])));
        assertEquals(-1, abortCode(false, request(3, 99, 1000, 1000, new int[] {0}, new byte[0])));
    }

    @Test
    void shortOrNegativeRequestsAbortWithMinusOne() throws Exception {
        assertEquals(-1, abortCode(false, new byte[10]));
        assertEquals(-1, abortCode(false, request(3, 0, 1000, 1000, new int[] {5000}, pattern(4999))));
        assertEquals(-1, abortCode(false, request(3, 1, 1000, 1000, new int[] {-1}, new byte[0])));
        assertEquals(-1, abortCode(false, request(3, 4, 1000, 1000, new int[] {RxperfProtocol.MAX_FILE_WORDS + 1},
                new byte[0])));
    }

    @Test
    void verifyAbortsAPatternMismatchWith251() throws Exception {
        byte[] payload = pattern(5000);
        payload[4321] ^= 1;
        assertEquals(251, abortCode(true, request(3, 0, 1000, 1000, new int[] {5000}, payload)));
        assertTrue(log.get(0).contains("at byte 4321"), log.toString());
        // without --verify the same request is served (content is ignored, as OpenAFS)
        assertArrayEquals(cookie(), serve(false, request(3, 0, 1000, 1000, new int[] {5000}, payload)));
    }

    @Test
    void countsCallsPayloadAndAborts() throws Exception {
        RxperfServerHandler handler = new RxperfServerHandler(false, log::add);
        handler.handle(new ByteArrayInputStream(request(3, 3, 100, 100, new int[] {3, 30}, pattern(3))),
                new ByteArrayOutputStream());
        assertThrows(RxperfAbortException.class, () -> handler.handle(
                new ByteArrayInputStream(request(4, 3, 100, 100, new int[] {3, 30}, pattern(3))),
                new ByteArrayOutputStream()));
        assertEquals(2, handler.calls());
        assertEquals(1, handler.aborts());
        assertEquals(33, handler.payloadBytes());
    }

    /** Serves {@code request} by the small-call path, as the transport would: router check, then handleSmall. */
    private static byte[] serveSmall(RxperfServerHandler h, byte[] request) throws Exception {
        int prefix = Math.min(request.length, h.smallCallPrefixBytes());
        assertTrue(h.isSmallCall(request, prefix, request.length <= prefix), "a small call");
        return h.handleSmall(RxperfProtocol.VERSION, java.util.Arrays.copyOfRange(request, 4, request.length));
    }

    private static boolean small(byte[] request) {
        RxperfServerHandler h = new RxperfServerHandler(false, line -> { });
        int prefix = Math.min(request.length, h.smallCallPrefixBytes());
        return h.isSmallCall(request, prefix, request.length <= prefix);
    }

    @Test
    void smallPathRepliesAsTheStreamPath() throws Exception {
        RxperfServerHandler h = new RxperfServerHandler(true, log::add);
        byte[][] requests = {
            request(3, 3, 524288, 524288, new int[] {3, 30}, pattern(3)),
            request(3, 3, 1000, 7, new int[] {0, 0}, new byte[0]),
            request(3, 3, 100, 100, new int[] {65536, 65536}, pattern(65536)),
            request(3, 1, 7, 13, new int[] {3000}, new byte[0]),
            request(3, 3, 524288, 524288, new int[] {3, 30}, pattern(3)), // the cached reply again
            request(3, 0, 1000, 1000, new int[] {5000}, pattern(5000)),
            request(3, 0, 1000, 1000, new int[] {0}, new byte[0]),
            // past the pattern source's chunk: checked chunk by chunk
            request(3, 0, 1000, 1000, new int[] {RxperfServerHandler.SMALL_SEND_MAX},
                    pattern(RxperfServerHandler.SMALL_SEND_MAX)),
            // a reply past the pattern source's chunk, built chunk by chunk
            request(3, 1, 1000, 1000, new int[] {RxperfServerHandler.SMALL_RECV_MAX}, new byte[0]),
        };
        for (byte[] r : requests) {
            assertArrayEquals(serve(true, r), serveSmall(h, r));
        }
        assertEquals(9, h.calls());
        assertEquals(33 + 0 + 131072 + 3000 + 33 + 5000 + RxperfServerHandler.SMALL_SEND_MAX
                + RxperfServerHandler.SMALL_RECV_MAX, h.payloadBytes());
        assertEquals(0, h.aborts());
    }

    @Test
    void onlyCorrectSmallRpcRecvAndSendTakeTheSmallPath() throws Exception {
        assertTrue(small(request(3, 3, 1000, 1000, new int[] {4, 4}, pattern(4))));
        assertTrue(small(request(3, 1, 1000, 1000, new int[] {100}, new byte[0])));
        assertTrue(small(request(3, 0, 1000, 1000, new int[] {4}, pattern(4))));
        assertTrue(small(request(3, 0, 1000, 1000, new int[] {0}, new byte[0])), "a whole 20-byte request");
        assertTrue(small(request(3, 0, 1000, 1000, new int[] {65537}, pattern(30))), "a SEND is gathered up to 1 MiB");
        assertFalse(small(request(3, 0, 1000, 1000, new int[] {RxperfServerHandler.SMALL_SEND_MAX + 1}, pattern(30))),
                "a larger SEND streams");
        assertTrue(small(request(3, 1, 1000, 1000, new int[] {RxperfServerHandler.SMALL_RECV_MAX}, new byte[0])),
                "a RECV is answered whole up to 1 MiB");
        assertFalse(small(request(3, 1, 1000, 1000, new int[] {RxperfServerHandler.SMALL_RECV_MAX + 1}, new byte[0])),
                "a larger RECV streams");
        assertFalse(small(request(3, 4, 1000, 1000, new int[] {1, 1}, new byte[0])), "FILE streams");
        assertFalse(small(request(2, 3, 1000, 1000, new int[] {4, 4}, pattern(4))), "wrong version: stream path aborts");
        assertFalse(small(request(3, 3, 0, 1000, new int[] {4, 4}, pattern(4))), "bad chunk: stream path aborts");
        assertFalse(small(request(3, 3, 1000, 1000, new int[] {-4, 4}, new byte[0])), "negative size");
        assertFalse(small(request(3, 3, 1000, 1000, new int[] {4, 65537}, pattern(4))), "large reply streams");
        assertFalse(small(request(3, 3, 1000, 1000, new int[] {65537, 4}, pattern(10))), "large request streams");
        assertFalse(small(request(3, 3, 1000, 1000, new int[] {4}, new byte[0])), "RPC without its R field");
    }

    @Test
    void smallPathAbortsAsTheStreamPath() throws Exception {
        RxperfServerHandler h = new RxperfServerHandler(true, log::add);
        byte[] wrong = pattern(100);
        wrong[42] = 7;
        byte[] mismatch = request(3, 3, 1000, 1000, new int[] {100, 4}, wrong);
        assertEquals(251, abortCode(true, mismatch));
        RxperfAbortException a = assertThrows(RxperfAbortException.class, () -> serveSmall(h, mismatch));
        assertEquals(251, a.code());
        assertTrue(a.getMessage().contains("42"), a.getMessage());
        byte[] shortRequest = request(3, 3, 1000, 1000, new int[] {100, 4}, pattern(60));
        assertEquals(-1, abortCode(false, shortRequest));
        RxperfAbortException s = assertThrows(RxperfAbortException.class, () -> serveSmall(h, shortRequest));
        assertEquals(-1, s.code());
        assertEquals("RPC request ended after 60 of 100 payload bytes", s.getMessage());
        byte[] shortSend = request(3, 0, 1000, 1000, new int[] {100}, pattern(99));
        assertEquals(-1, abortCode(false, shortSend));
        RxperfAbortException ss = assertThrows(RxperfAbortException.class, () -> serveSmall(h, shortSend));
        assertEquals("SEND request ended after 99 of 100 payload bytes", ss.getMessage());
        byte[] wrongSend = pattern(100);
        wrongSend[0] = 9;
        RxperfAbortException ws = assertThrows(RxperfAbortException.class,
                () -> serveSmall(h, request(3, 0, 1000, 1000, new int[] {100}, wrongSend)));
        assertEquals(251, ws.code());
        byte[] wrongLate = pattern(RxperfServerHandler.SMALL_SEND_MAX);
        wrongLate[600_000] ^= 1;    // in the second chunk the check looks at
        RxperfAbortException wl = assertThrows(RxperfAbortException.class, () -> serveSmall(h,
                request(3, 0, 1000, 1000, new int[] {RxperfServerHandler.SMALL_SEND_MAX}, wrongLate)));
        assertEquals(251, wl.code());
        assertTrue(wl.getMessage().contains("600000"), wl.getMessage());
        assertEquals(5, h.aborts());
        assertEquals(5, h.calls());
    }
}
