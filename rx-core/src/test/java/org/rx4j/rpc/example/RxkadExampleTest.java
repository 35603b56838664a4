// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc.example;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.rx4j.testing.LeakCheckExtension;

/**
 * docs/embedding.md "Security classes" includes {@link RxkadExample} verbatim, and it runs: on a throwaway key
 * directory (a KeyFile with one DES key, kvno 3, as {@code asetkey} writes it) the rxkad call is answered with the
 * caller's name.
 */
@Timeout(60)
@ExtendWith(LeakCheckExtension.class)
class RxkadExampleTest {
    static final String SOURCE = "rx-core/src/test/java/org/rx4j/rpc/example/RxkadExample.java";

    @Test
    void docIncludesTheExampleSourceVerbatim() throws Exception {
        EmbeddingDocTest.assertIncludedVerbatim(SOURCE, "rxkad-example");
    }

    @Test
    void runsOnAKeyDirectory(@TempDir Path keys) throws Exception {
        // KeyFile: a count, then kvno and an 8-byte DES key per entry, big-endian (docs/security.md)
        Files.write(keys.resolve("KeyFile"), HexFormat.of().parseHex("00000001" + "00000003" + "0123456789abcdef"));
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
            RxkadExample.run(keys, out);
        }
        assertEquals(List.of("afs sent 5 bytes"), bytes.toString(StandardCharsets.UTF_8).lines().toList());
    }
}
