// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.perf.transport;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * The security of rxperf's connections ({@code --security}, {@code --keyfile}; docs/rxperf.md "Security"): rxnull,
 * or rxkad at a level with the server's KeyFile, from which a client mints its own ticket as OpenAFS's
 * {@code -localauth} does. Immutable.
 *
 * @param level one of {@link #LEVELS}: none (rxnull), clear, auth or crypt (rxkad)
 * @param keyFile the AFS KeyFile (DES keys by kvno), or null; needed for every level but none, on both sides (a
 *     client also takes a server configuration directory holding KeyFile and/or KeyFileExt)
 */
public record PerfSecurity(String level, Path keyFile) {
    /** The words {@code --security} accepts. */
    public static final List<String> LEVELS = List.of("none", "clear", "auth", "crypt");
    /** rxnull, as without the flags. */
    public static final PerfSecurity NONE = new PerfSecurity("none", null);

    /**
     * @throws IllegalArgumentException if the level is not one of {@link #LEVELS}, or is not none without a KeyFile
     */
    public PerfSecurity {
        Objects.requireNonNull(level, "level");
        if (!LEVELS.contains(level)) {
            throw new IllegalArgumentException("security level " + level + " is not one of " + LEVELS);
        }
        if (!"none".equals(level) && keyFile == null) {
            throw new IllegalArgumentException("--security " + level + " needs --keyfile");
        }
    }

    /** @return true for rxnull */
    public boolean none() {
        return "none".equals(level);
    }

    /** @return the rxkad level's number, 0..2 (clear, auth, crypt); -1 for none */
    public int rxkadLevel() {
        return LEVELS.indexOf(level) - 1;
    }
}
