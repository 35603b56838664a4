// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.perf;

import java.nio.file.Path;
import org.rx4j.perf.transport.PerfSecurity;
import picocli.CommandLine.Option;

/**
 * The security flags client, server and loopback share (docs/rxperf.md "Security"): {@code --security} picks rxnull
 * or an rxkad level, {@code --keyfile} names the AFS KeyFile a server takes its keys from and a client mints its
 * ticket from (OpenAFS's {@code -localauth}; a client also takes the configuration directory holding KeyFile and
 * KeyFileExt). Long names only: OpenAFS's rxperf has no such flags.
 */
final class SecurityFlags {
    @Option(names = "--security", paramLabel = "none|clear|auth|crypt", defaultValue = "none",
            description = "Security class: none (rxnull) or rxkad at clear, auth or crypt; a server takes that level "
                    + "as the least it accepts. Default: ${DEFAULT-VALUE}.")
    String level;

    @Option(names = "--keyfile", paramLabel = "PATH",
            description = "AFS KeyFile (DES keys by kvno): the server's keys; the client mints a ticket from it "
                    + "as -localauth does (a client also takes a server configuration directory holding KeyFile "
                    + "and/or KeyFileExt). Needed with --security clear, auth or crypt.")
    Path keyFile;

    /**
     * @param check the checker of the command
     * @return the security these flags give
     * @throws picocli.CommandLine.ParameterException for an unknown level or a level without {@code --keyfile}
     */
    PerfSecurity toSecurity(FlagCheck check) {
        if (!PerfSecurity.LEVELS.contains(level)) {
            throw check.invalid("--security", level + " is not one of none, clear, auth, crypt");
        }
        if (!"none".equals(level) && keyFile == null) {
            throw check.usage("--security " + level + " needs --keyfile PATH");
        }
        return new PerfSecurity(level, keyFile);
    }
}
