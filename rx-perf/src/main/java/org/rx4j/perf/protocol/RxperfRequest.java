// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.perf.protocol;

import java.util.Objects;

/**
 * What every call of a client run asks for (rx-wire-facts.md §10): the command and its sizes.
 *
 * @param command the command ({@code -c})
 * @param bytes SEND/RECV payload bytes per call ({@code -b}); for FILE only used in the result line, as OpenAFS
 * @param sendBytes RPC bytes the client sends per call ({@code -S})
 * @param receiveBytes RPC bytes the client receives per call ({@code -R})
 * @param readSize client read chunk size ({@code -r}), 1..524288 bytes; sent as the block's readSize
 * @param writeSize client write chunk size ({@code -w}), 1..524288 bytes; sent as the block's writeSize
 * @param fileWords the FILE word list, null for other commands
 */
public record RxperfRequest(RxperfCommand command, int bytes, int sendBytes, int receiveBytes, int readSize,
        int writeSize, FileWords fileWords) {

    /**
     * Checks the fields.
     *
     * @throws IllegalArgumentException if a size is out of range or FILE has no word list
     */
    public RxperfRequest {
        Objects.requireNonNull(command, "command");
        if (bytes < 0 || sendBytes < 0 || receiveBytes < 0) {
            throw new IllegalArgumentException("negative size");
        }
        if (readSize < 1 || readSize > RxperfProtocol.MAX_CHUNK || writeSize < 1
                || writeSize > RxperfProtocol.MAX_CHUNK) {
            throw new IllegalArgumentException("chunk size not in 1.." + RxperfProtocol.MAX_CHUNK);
        }
        if (command == RxperfCommand.FILE && fileWords == null) {
            throw new IllegalArgumentException("FILE needs a word list");
        }
    }

    /**
     * Payload bytes one call actually moves, both directions, without rxperf's header fields and cookie.
     *
     * @return bytes
     */
    public long payloadBytesPerCall() {
        return switch (command) {
            case SEND, RECV -> bytes;
            case RPC -> (long) sendBytes + receiveBytes;
            case FILE -> fileWords.payloadBytesPerCall();
        };
    }

    /**
     * rxperf's own bytes in one call, both directions: the 16-byte parameter block, the command's sizes (one int32;
     * rpc two; file the word count and the words) and the reply's 4-byte cookie (none for file) (docs/rxperf.md
     * "Protocol").
     *
     * @return bytes
     */
    public long headerBytesPerCall() {
        return switch (command) {
            case SEND, RECV -> 16 + 4 + 4;
            case RPC -> 16 + 8 + 4;
            case FILE -> 16 + 4 + 4L * fileWords.size();
        };
    }
}
