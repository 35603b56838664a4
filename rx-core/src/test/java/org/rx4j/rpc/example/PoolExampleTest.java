// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc.example;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.rx4j.rpc.RxEndpoint;
import org.rx4j.testing.LeakCheckExtension;

/**
 * docs/embedding.md "Pools" includes {@link PoolExample} verbatim (the doc's java block after its include marker
 * equals the source between the file's {@code pool-example:begin/end} markers), and the example runs.
 */
@Timeout(60)
@ExtendWith(LeakCheckExtension.class)
class PoolExampleTest {
    static final String SOURCE = "rx-core/src/test/java/org/rx4j/rpc/example/PoolExample.java";

    @Test
    void docIncludesTheExampleSourceVerbatim() throws Exception {
        EmbeddingDocTest.assertIncludedVerbatim(SOURCE, "pool-example");
    }

    @Test
    void exampleRunsAndPrintsItsResults() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (RxEndpoint server = EmbeddingExample.startServer(0);
             PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
            PoolExample.runClient(server.localAddress(), out);
        }
        assertEquals(List.of("16 sums: 272", "connections within the bound: true"),
                bytes.toString(StandardCharsets.UTF_8).lines().toList());
    }
}
