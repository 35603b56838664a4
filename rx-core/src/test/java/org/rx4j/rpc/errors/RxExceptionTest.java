// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc.errors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import org.junit.jupiter.api.Test;
import org.rx4j.wire.AbortCodes;

class RxExceptionTest {

    @Test
    void remoteAbortNamesTheCode() {
        RxException e = RxException.remote(AbortCodes.RXGEN_OPCODE);
        assertEquals("call aborted by peer: RXGEN_OPCODE (-455)", e.getMessage());
        assertEquals(-455, e.code());
        assertEquals("RXGEN_OPCODE", e.codeName());
        assertTrue(e.remote());
        assertNull(e.getCause());
        assertInstanceOf(IOException.class, e);
    }

    @Test
    void localAbortCarriesDetailAndCause() {
        IllegalStateException cause = new IllegalStateException("boom");
        RxException e = RxException.local(AbortCodes.RX_CALL_TIMEOUT, "no reply in 30000 ms", cause);
        assertEquals("call aborted locally: RX_CALL_TIMEOUT (-3): no reply in 30000 ms", e.getMessage());
        assertEquals(AbortCodes.RX_CALL_TIMEOUT, e.code());
        assertFalse(e.remote());
        assertSame(cause, e.getCause());
    }

    @Test
    void localAbortWithoutDetail() {
        assertEquals("call aborted locally: RX_USER_ABORT (-6)",
                RxException.local(AbortCodes.RX_USER_ABORT, null).getMessage());
        assertEquals("call aborted locally: RX_USER_ABORT (-6)",
                RxException.local(AbortCodes.RX_USER_ABORT, "").getMessage());
    }

    @Test
    void applicationCodeHasNoConstantName() {
        RxException e = RxException.remote(5);
        assertEquals("call aborted by peer: error 5", e.getMessage());
        assertEquals("error 5", e.codeName());
        assertEquals(5, e.code());
    }

    @Test
    void historicalCodesAreNamed() {
        assertEquals("call aborted by peer: RX_CALL_IDLE (-9)", RxException.remote(-9).getMessage());
        assertEquals("RX_CALL_BUSY", RxException.remote(-10).codeName());
    }

    @Test
    void codeZeroIsRejected() {
        assertThrows(IllegalArgumentException.class, () -> RxException.remote(0));
        assertThrows(IllegalArgumentException.class, () -> RxException.local(0, "x"));
    }
}
