// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.afs.tools;

import java.io.IOException;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Optional;
import org.rx4j.security.RxNullSecurityClass;
import org.rx4j.security.SecurityClass;
import org.rx4j.security.rxkad.CredentialCache;
import org.rx4j.security.rxkad.Krb5Credentials;
import org.rx4j.security.rxkad.LocalAuth;
import org.rx4j.security.rxkad.RxkadClientSecurity;
import org.rx4j.security.rxkad.RxkadCredentials;
import org.rx4j.security.rxkad.RxkadLevel;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/**
 * afsq's security flags, with OpenAFS's names where OpenAFS has them (docs/cells.md "afsq"): {@code -localauth}
 * (credentials minted from the server keys in {@code -config}, as {@code bos/vos/pts -localauth}), {@code
 * -encrypt} (rxkad at crypt level instead of clear) and {@code -ccache FILE} (rxkad-k5 from a Kerberos 5 file
 * credential cache; OpenAFS's tools read tokens instead, so this flag is afsq's own). No flag: rxnull.
 */
final class SecurityOptions {
    @Option(names = "-localauth", description = "authenticate as the cell's superuser with the server keys in -config")
    boolean localAuth;

    @Option(names = "-encrypt", description = "rxkad at crypt level (default with credentials: clear)")
    boolean encrypt;

    @Option(names = "-config", paramLabel = "DIR", defaultValue = "/etc/openafs/server",
            description = "server configuration directory -localauth reads KeyFile/KeyFileExt from "
                    + "(default: ${DEFAULT-VALUE})")
    Path config;

    @Option(names = "-ccache", paramLabel = "FILE",
            description = "rxkad-k5 with the afs/CELL ticket of this Kerberos 5 file credential cache "
                    + "(FILE:path or path, e.g. $KRB5CCNAME)")
    String ccache;

    /**
     * @param spec the command, for usage errors
     * @throws CommandLine.ParameterException if -localauth and -ccache are both given, or -encrypt without either
     */
    void check(CommandLine.Model.CommandSpec spec) {
        if (localAuth && ccache != null) {
            throw new CommandLine.ParameterException(spec.commandLine(), "-localauth and -ccache exclude each other");
        }
        if (encrypt && !localAuth && ccache == null) {
            throw new CommandLine.ParameterException(spec.commandLine(), "-encrypt needs -localauth or -ccache");
        }
    }

    /** @return the rxkad level the flags ask for */
    RxkadLevel level() {
        return encrypt ? RxkadLevel.CRYPT : RxkadLevel.CLEAR;
    }

    /**
     * @param cell the cell asked
     * @return the credentials the flags name, none for rxnull
     * @throws IOException if the key files or the cache cannot be read or hold nothing usable
     */
    Optional<RxkadCredentials> credentials(String cell) throws IOException {
        if (localAuth) {
            return Optional.of(LocalAuth.fromDirectory(config, new SecureRandom()));
        }
        if (ccache != null) {
            return Optional.of(Krb5Credentials.fromCache(CredentialCache.fileOf(ccache), cell, null));
        }
        return Optional.empty();
    }

    /**
     * The security class for the connections: rxnull without flags, else rxkad at {@link #level()} with the loaded
     * credentials (docs/security.md "Credentials").
     *
     * @param cell the cell asked
     * @return rxnull when no flag asks for rxkad, else an rxkad client class
     * @throws IOException if the credentials do not load
     */
    SecurityClass securityClass(String cell) throws IOException {
        Optional<RxkadCredentials> c = credentials(cell);
        if (c.isEmpty()) {
            return RxNullSecurityClass.INSTANCE;
        }
        RxkadCredentials k = c.get();
        return new RxkadClientSecurity(level(), k.sessionKey(), k.kvno(), k.ticket());
    }
}
