// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.perf.protocol;

import java.util.Locale;
import java.util.Optional;

/** The rxperf commands and their wire codes in the parameter block (rx-wire-facts.md §10; code 2 is unused). */
public enum RxperfCommand {
    /** Client sends {@code -b} bytes; server replies with the cookie. */
    SEND(0),
    /** Client asks for {@code -b} bytes; server sends them, then the cookie. */
    RECV(1),
    /** Client sends {@code -S} bytes and asks for {@code -R}; server sends them, then the cookie. */
    RPC(3),
    /** A word list drives alternating transfers; no cookie. */
    FILE(4);

    private final int code;

    RxperfCommand(int code) {
        this.code = code;
    }

    /**
     * The command's code in the parameter block.
     *
     * @return 0, 1, 3 or 4
     */
    public int code() {
        return code;
    }

    /**
     * The word used with {@code -c}.
     *
     * @return {@code send}, {@code recv}, {@code rpc} or {@code file}
     */
    public String flagValue() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * Looks a wire code up.
     *
     * @param code the command field of a parameter block
     * @return the command, or empty for any other value
     */
    public static Optional<RxperfCommand> fromCode(int code) {
        for (RxperfCommand command : values()) {
            if (command.code == code) {
                return Optional.of(command);
            }
        }
        return Optional.empty();
    }

    /**
     * Parses a {@code -c} word, case-insensitively as OpenAFS (strcasecmp).
     *
     * @param word the word
     * @return the command
     * @throws IllegalArgumentException naming the accepted words
     */
    public static RxperfCommand fromFlag(String word) {
        for (RxperfCommand command : values()) {
            if (command.flagValue().equalsIgnoreCase(word)) {
                return command;
            }
        }
        throw new IllegalArgumentException("'" + word + "' is not one of send, recv, rpc, file");
    }
}
