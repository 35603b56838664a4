// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Random;
import org.junit.jupiter.api.Test;

class SecurityClassRegistryTest {
    private final SecurityClassRegistry registry = new SecurityClassRegistry();
    private final ToyChecksumSecurityClass toy = new ToyChecksumSecurityClass(1, new Random(1));

    @Test
    void findsByServiceAndIndex() {
        registry.register(147, RxNullSecurityClass.INSTANCE);
        registry.register(147, toy);
        registry.register(52, RxNullSecurityClass.INSTANCE);
        assertSame(RxNullSecurityClass.INSTANCE, registry.find(147, 0));
        assertSame(toy, registry.find(147, ToyChecksumSecurityClass.INDEX));
        assertSame(RxNullSecurityClass.INSTANCE, registry.find(52, 0));
        assertNull(registry.find(52, ToyChecksumSecurityClass.INDEX), "index not registered for this service");
        assertNull(registry.find(1, 0), "service not registered");
    }

    @Test
    void duplicatesAndBadRangesAreRefused() {
        registry.register(147, RxNullSecurityClass.INSTANCE);
        assertThrows(IllegalStateException.class, () -> registry.register(147, RxNullSecurityClass.INSTANCE));
        assertThrows(IllegalArgumentException.class, () -> registry.register(0, RxNullSecurityClass.INSTANCE));
        assertThrows(IllegalArgumentException.class, () -> registry.register(0x10000, RxNullSecurityClass.INSTANCE));
        assertThrows(NullPointerException.class, () -> registry.register(1, null));
    }

    @Test
    void hostileHeaderValuesFindNothing() {
        registry.register(147, RxNullSecurityClass.INSTANCE);
        // (147 << 8 | 0) must not be reachable through an out-of-range pair that packs to the same key.
        assertNull(registry.find(0, (147 << 8)));
        assertNull(registry.find(147, 256));
        assertNull(registry.find(-1, 0));
        assertNull(registry.find(147 + 0x10000, 0));
    }

    @Test
    void unregisterRemovesOnlyThatPair() {
        registry.register(147, RxNullSecurityClass.INSTANCE);
        registry.register(147, toy);
        assertSame(toy, registry.unregister(147, ToyChecksumSecurityClass.INDEX));
        assertNull(registry.find(147, ToyChecksumSecurityClass.INDEX));
        assertSame(RxNullSecurityClass.INSTANCE, registry.find(147, 0));
        assertNull(registry.unregister(147, ToyChecksumSecurityClass.INDEX));
        assertEquals("index 200", SecurityIndex.name(ToyChecksumSecurityClass.INDEX));
        assertEquals("rxkad", SecurityIndex.name(SecurityIndex.RXKAD));
    }
}
