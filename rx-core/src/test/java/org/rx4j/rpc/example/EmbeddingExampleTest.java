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

/** Runs the docs/embedding.md example end to end over loopback and checks what it prints. */
@Timeout(60)
@ExtendWith(LeakCheckExtension.class)
class EmbeddingExampleTest {
    @Test
    void exampleRunsAndPrintsItsResults() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (RxEndpoint server = EmbeddingExample.startServer(0);
             PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
            EmbeddingExample.runClient(server.localAddress(), out);
        }
        assertEquals(List.of("add: 42", "greet: hello, rx4j", "opcode 99: RXGEN_OPCODE (-455)"),
                bytes.toString(StandardCharsets.UTF_8).lines().toList());
    }
}
