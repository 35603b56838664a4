// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.perf.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.concurrent.atomic.LongAdder;
import org.junit.jupiter.api.Test;

/**
 * The whole request an async call chain sends (rx-wire-facts.md §10, rxperf's request): the parameter block and the
 * command's fields, then the k mod 251 payload pattern, continuous across the pattern source's chunk size.
 */
class WholeRequestTest {
    private static final int CHUNK = RxperfProtocol.MAX_CHUNK;
    /** Parameter block and one field (SEND's and RECV's byte count). */
    private static final int HEADER = RxperfParamBlock.SIZE + 4;

    @Test
    void aSendOfOneMebibyteCarriesThePatternWithoutABreakAtTheChunkBoundary() throws Exception {
        int bytes = 1 << 20;    // twice the pattern source's chunk
        byte[] request = new RxperfClientWorkload(new RxperfRequest(RxperfCommand.SEND, bytes, 0, 0, CHUNK, CHUNK,
                null), true, new LongAdder()).wholeRequest();
        assertEquals(HEADER + bytes, request.length);
        assertEquals(RxperfCommand.SEND.code(), RxperfProtocol.readInt32(new java.io.ByteArrayInputStream(request, 4, 4)));
        for (int i = 0; i < bytes; i++) {
            if (request[HEADER + i] != (byte) PayloadPattern.expected(i)) {
                throw new AssertionError("payload byte " + i + " is " + request[HEADER + i]);
            }
        }
    }

    @Test
    void aRecvRequestIsItsHeaderAloneAndFileHasNoWholeForm() throws Exception {
        byte[] recv = new RxperfClientWorkload(new RxperfRequest(RxperfCommand.RECV, 1 << 20, 0, 0, CHUNK, CHUNK,
                null), true, new LongAdder()).wholeRequest();
        assertEquals(HEADER, recv.length);
        FileWords words = FileWords.parse("w.txt", new java.io.BufferedReader(new java.io.StringReader("1\n")));
        RxperfClientWorkload file = new RxperfClientWorkload(new RxperfRequest(RxperfCommand.FILE, 0, 0, 0, CHUNK,
                CHUNK, words), true, new LongAdder());
        assertThrows(IllegalStateException.class, file::wholeRequest);
    }
}
