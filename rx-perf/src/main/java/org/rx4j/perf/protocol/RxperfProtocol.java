// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.perf.protocol;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;

/**
 * Constants of the rxperf protocol (rx-wire-facts.md §10, OpenAFS src/tools/rxperf/rxperf.c) and the XDR int32
 * reader both sides use. The request starts with a 16-byte {@link RxperfParamBlock}; per-command fields follow.
 */
public final class RxperfProtocol {
    /** rxperf's Rx service id. */
    public static final int SERVICE_ID = 147;
    /** rxperf's default UDP port. */
    public static final int DEFAULT_PORT = 7009;
    /** Protocol version in the parameter block; a server aborts any other with {@link #ABORT_REJECTED}. */
    public static final int VERSION = 3;
    /** The 4-byte cookie a server appends to SEND, RECV and RPC replies (0x00004711). */
    public static final int MAGIC_COOKIE = 0x00004711;
    /** Largest read or write chunk, bytes (OpenAFS's 512 KiB buffer); larger sizes in the block are aborted. */
    public static final int MAX_CHUNK = 524288;
    /** Default client {@code -r}/{@code -w} chunk size, bytes. */
    public static final int DEFAULT_CHUNK = MAX_CHUNK;
    /** Abort code of every rxperf protocol rejection (bad version, oversize chunk, unknown command, short request). */
    public static final int ABORT_REJECTED = -1;
    /**
     * Abort code an rx4j server with {@code --verify} sends when request payload breaks the k mod 251 pattern.
     * Positive, i.e. an application code (rx-wire-facts.md §6); mnemonic: the pattern's modulus.
     */
    public static final int ABORT_PATTERN_MISMATCH = 251;
    /** Most FILE words a server accepts in one call; more is aborted with {@link #ABORT_REJECTED} (rx4j's limit). */
    public static final int MAX_FILE_WORDS = 1 << 20;
    /** Bytes per FILE word unit: a word w moves 4·w bytes. */
    public static final int FILE_WORD_UNIT = 4;

    private RxperfProtocol() {
    }

    /**
     * Reads one big-endian (XDR) int32, blocking until 4 bytes have arrived.
     *
     * @param in the stream
     * @return the value
     * @throws EOFException if the stream ends before 4 bytes
     * @throws IOException if the stream fails
     */
    public static int readInt32(InputStream in) throws IOException {
        byte[] four = new byte[4];
        readFully(in, four, 0, 4);
        return ((four[0] & 0xff) << 24) | ((four[1] & 0xff) << 16) | ((four[2] & 0xff) << 8) | (four[3] & 0xff);
    }

    /**
     * Reads exactly {@code length} bytes.
     *
     * @param in the stream
     * @param buffer destination
     * @param offset first index written
     * @param length bytes to read
     * @throws EOFException if the stream ends first; its message says how many bytes arrived
     * @throws IOException if the stream fails
     */
    public static void readFully(InputStream in, byte[] buffer, int offset, int length) throws IOException {
        int done = 0;
        while (done < length) {
            int n = in.read(buffer, offset + done, length - done);
            if (n < 0) {
                throw new EOFException("stream ended after " + done + " of " + length + " bytes");
            }
            done += n;
        }
    }

    /**
     * Stores a big-endian int32.
     *
     * @param value the value
     * @param buffer destination
     * @param offset index of the first (most significant) byte
     */
    static void putInt32(int value, byte[] buffer, int offset) {
        buffer[offset] = (byte) (value >>> 24);
        buffer[offset + 1] = (byte) (value >>> 16);
        buffer[offset + 2] = (byte) (value >>> 8);
        buffer[offset + 3] = (byte) value;
    }
}
