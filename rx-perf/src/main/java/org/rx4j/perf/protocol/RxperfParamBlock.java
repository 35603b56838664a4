// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.perf.protocol;

import java.io.IOException;
import java.io.InputStream;

/**
 * The 16-byte block that starts every rxperf request: four XDR (big-endian) int32s {@code version, command,
 * readSize, writeSize} (rx-wire-facts.md §10). readSize and writeSize are the client's {@code -r} and {@code -w}
 * chunk sizes in bytes; the server adopts them as its own read and write chunk sizes.
 *
 * @param version protocol version, {@link RxperfProtocol#VERSION} from a correct client
 * @param command command code, see {@link RxperfCommand#code()}
 * @param readSize read chunk size, bytes
 * @param writeSize write chunk size, bytes
 */
public record RxperfParamBlock(int version, int command, int readSize, int writeSize) {
    /** Encoded size, bytes. */
    public static final int SIZE = 16;

    /**
     * Encodes the block.
     *
     * @param buffer destination with at least 16 bytes from {@code offset}
     * @param offset index of the first byte
     */
    public void encode(byte[] buffer, int offset) {
        RxperfProtocol.putInt32(version, buffer, offset);
        RxperfProtocol.putInt32(command, buffer, offset + 4);
        RxperfProtocol.putInt32(readSize, buffer, offset + 8);
        RxperfProtocol.putInt32(writeSize, buffer, offset + 12);
    }

    /**
     * Reads a block from a request. No field is validated here (the server handler decides).
     *
     * @param in the request stream
     * @return the block
     * @throws java.io.EOFException if the request ends inside the block
     * @throws IOException if the stream fails
     */
    public static RxperfParamBlock read(InputStream in) throws IOException {
        byte[] bytes = new byte[SIZE];
        RxperfProtocol.readFully(in, bytes, 0, SIZE);
        return new RxperfParamBlock(int32(bytes, 0), int32(bytes, 4), int32(bytes, 8), int32(bytes, 12));
    }

    private static int int32(byte[] b, int i) {
        return ((b[i] & 0xff) << 24) | ((b[i + 1] & 0xff) << 16) | ((b[i + 2] & 0xff) << 8) | (b[i + 3] & 0xff);
    }
}
