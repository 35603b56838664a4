// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.example.phonebook;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Runs the example: the plugin generated the stubs, the client and the server talk over 127.0.0.1. */
class PhonebookExampleTest {
    @Test
    void clientAndServerFromTheGeneratedStubs() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PhonebookExample.run(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        assertEquals(List.of(
                "alice -> 1234",
                "book: [PbEntry[name=alice, number=1234], PbEntry[name=bob, number=5678]]",
                "carol -> PB_Lookup (opcode 2): call aborted by peer: error 1"),
                bytes.toString(StandardCharsets.UTF_8).lines().toList());
    }
}
