// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.security;

import org.rx4j.security.packet.ConnectionRole;
import org.rx4j.security.packet.SecurityContext;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class SecurityContextTest {
    private final int[] channels = {11, 0, 7, 3};
    private final SecurityContext ctx = new SecurityContext(RxNullSecurityClass.INSTANCE, ConnectionRole.SERVER,
            0x8000_0001, 0x1234_5677, 147, channel -> channels[channel]);

    @Test
    void exposesTheConnection() {
        assertEquals(0x8000_0001, ctx.epoch());
        assertEquals(0x1234_5674, ctx.cid(), "channel bits cleared");
        assertEquals(147, ctx.serviceId());
        assertEquals(ConnectionRole.SERVER, ctx.role());
        assertFalse(ctx.isClient());
        assertSame(RxNullSecurityClass.INSTANCE, ctx.securityClass());
        assertEquals(0, ctx.securityIndex());
    }

    @Test
    void callNumbersAreReadLiveFromTheEngine() {
        assertEquals(11, ctx.callNumber(0));
        channels[0] = 12;
        assertEquals(12, ctx.callNumber(0), "a view, not a copy");
        assertEquals(3, ctx.callNumber(3));
        assertThrows(IndexOutOfBoundsException.class, () -> ctx.callNumber(4));
        assertThrows(IndexOutOfBoundsException.class, () -> ctx.callNumber(-1));
    }

    @Test
    void stateSlotAndResponseCallNumbers() {
        assertNull(ctx.state());
        Object state = new Object();
        ctx.setState(state);
        assertSame(state, ctx.state());
        int[] numbers = {4, 5, 6, 7};
        ctx.setResponseCallNumbers(numbers);
        numbers[0] = 99;
        assertArrayEquals(new int[] {4, 5, 6, 7}, ctx.takeResponseCallNumbers(), "copied on set");
        assertNull(ctx.takeResponseCallNumbers());
        assertThrows(IllegalArgumentException.class, () -> ctx.setResponseCallNumbers(new int[3]));
    }

    @Test
    void rejectsBadArguments() {
        assertThrows(IllegalArgumentException.class, () -> new SecurityContext(RxNullSecurityClass.INSTANCE,
                ConnectionRole.CLIENT, 1, 4, 0x10000, c -> 0));
        assertThrows(NullPointerException.class, () -> new SecurityContext(null, ConnectionRole.CLIENT, 1, 4, 1, c -> 0));
        assertTrue(new SecurityContext(RxNullSecurityClass.INSTANCE, ConnectionRole.CLIENT, 1, 4, 1, c -> 0).isClient());
    }

    @Test
    void abortExceptionCarriesItsCode() {
        assertEquals(19270409, new SecurityAbortException(19270409, "x").code());
        assertThrows(IllegalArgumentException.class, () -> new SecurityAbortException(0, "x"));
        assertEquals(0, new SecurityAbortException(-5, "x").getStackTrace().length, "no stack trace kept");
    }
}
