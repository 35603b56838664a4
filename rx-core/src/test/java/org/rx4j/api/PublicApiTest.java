// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.lang.module.ModuleDescriptor;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The public API of rx-core is recorded in {@code rx-core/api/rx-core.api} ({@link ApiSignatures}: every public type
 * of the packages module-info exports, with its public and protected members) and this test fails on any change
 * to it that the file does not record, so that {@code mvn verify} stops an unintended break (docs/releasing.md
 * "The recorded API"). After a deliberate change: run
 * {@code mvn -pl rx-core test -Dtest=PublicApiTest -Drx4j.api.update=true}, review the file's diff, and list each
 * removal or change in CHANGELOG.md's Breaking section.
 */
class PublicApiTest {
    private static final Path RECORD = Path.of("api", "rx-core.api");
    private static final Path CLASSES = Path.of("target", "classes");

    @Test
    void theRecordedApiIsTheApi() throws IOException {
        String now = ApiSignatures.of(CLASSES, exported());
        if (Boolean.getBoolean("rx4j.api.update")) {
            Files.createDirectories(RECORD.getParent());
            Files.writeString(RECORD, now, StandardCharsets.UTF_8);
        }
        assertTrue(Files.exists(RECORD), "no recorded API at " + RECORD.toAbsolutePath());
        String recorded = Files.readString(RECORD, StandardCharsets.UTF_8);
        assertTrue(recorded.equals(now), () -> "rx-core's public API changed without being recorded:\n"
                + ApiSignatures.diff(recorded, now)
                + "\nIf deliberate: mvn -pl rx-core test -Dtest=PublicApiTest -Drx4j.api.update=true, then list the"
                + " change in CHANGELOG.md (Breaking, for a removal or a changed signature)");
    }

    @Test
    void internalPackagesAreNotRecorded() throws IOException {
        List<String> exported = exported();
        assertTrue(exported.contains("org.rx4j.rpc"), exported.toString());
        assertFalse(exported.contains("org.rx4j.engine"), exported.toString());
        assertFalse(exported.contains("org.rx4j.security.rxkad.crypto"), exported.toString());
        String api = ApiSignatures.of(CLASSES, exported);
        for (String primitive : List.of("Fcrypt", "FcryptPcbc", "PacketChecksum", "PacketProtection", "RxkadKdf",
                "V4Ticket", "RxkadChallenge", "RxkadResponse", "TicketOpener", "Krb5TicketOpener")) {
            assertFalse(Pattern.compile("\\.rxkad\\.(\\w+\\.)?" + primitive + "\\b").matcher(api).find(),
                    "rxkad's " + primitive + " is in the API");
        }
        // No exported signature names a Netty type: the security classes' packet work is internal
        // (docs/security.md "The security SPI") and the module exports no transport SPI, so nothing is exempt.
        assertFalse(exported.contains("org.rx4j.transport"), exported.toString());
        assertEquals("", nettyLines(api), "Netty types in exported signatures");
    }

    /** @return the recorded lines (owner :: member) that name a Netty type, one a line */
    private static String nettyLines(String api) {
        StringBuilder out = new StringBuilder();
        String owner = "";
        for (String line : api.split("\n")) {
            if (!line.startsWith(" ")) {
                owner = line;
            }
            if (line.contains("io.netty.")) {
                out.append(owner).append(" :: ").append(line.strip()).append('\n');
            }
        }
        return out.toString();
    }

    /** @return the packages module-info exports (unqualified), read from the compiled descriptor */
    private static List<String> exported() throws IOException {
        try (InputStream in = Files.newInputStream(CLASSES.resolve("module-info.class"))) {
            List<String> out = new ArrayList<>();
            for (ModuleDescriptor.Exports e : ModuleDescriptor.read(in).exports()) {
                if (!e.isQualified()) {
                    out.add(e.source());
                }
            }
            out.sort(null);
            return out;
        }
    }
}
