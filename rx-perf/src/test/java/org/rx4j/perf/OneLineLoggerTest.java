// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

class OneLineLoggerTest {
    @Test
    void warningsAreOneRxperfLineAndInfoIsSilent() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream stream = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        OneLineLogger log = new OneLineLogger("org.rx4j.transport.RxTransport", () -> stream);
        log.info("not shown");
        log.warn("UDP socket buffers capped by the kernel: asked {} bytes, got {}", 1024, 512);
        log.error("failed\non two lines", new IOException("boom"));
        assertEquals("rxperf: UDP socket buffers capped by the kernel: asked 1024 bytes, got 512\n"
                + "rxperf: failed on two lines (java.io.IOException: boom)\n", bytes.toString(StandardCharsets.UTF_8));
        assertFalse(log.isInfoEnabled());
        assertTrue(log.isWarnEnabled());
    }

    @Test
    void slf4jFindsRxperfsProvider() {
        assertTrue(LoggerFactory.getLogger("x") instanceof OneLineLogger, LoggerFactory.getLogger("x").getClass()
                .getName());
    }
}
