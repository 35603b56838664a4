// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.security.packet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.rx4j.security.RxNullSecurityClass;
import org.rx4j.security.SecurityClass;
import org.rx4j.security.SecurityIndex;
import org.rx4j.security.rxkad.RxkadClientSecurity;
import org.rx4j.security.rxkad.RxkadLevel;
import org.rx4j.security.rxkad.SessionKey;

/**
 * The accessor from an exported security-class handle to its packet work (docs/security.md "The security SPI"):
 * each of rx4j's handles has one, a class written outside the library has none.
 */
class PacketSecurityAccessTest {

    @Test
    void rxnullsHandleLeadsToItsPacketWork() {
        assertSame(RxNullPackets.INSTANCE, PacketSecurityAccess.of(RxNullSecurityClass.INSTANCE));
    }

    @Test
    void anRxkadHandleKeepsOnePacketWorkOfItsOwn() {
        RxkadClientSecurity handle = new RxkadClientSecurity(RxkadLevel.AUTH, new SessionKey(0x0123456789abcdefL), 1,
                new byte[32]);
        PacketSecurity packets = PacketSecurityAccess.of(handle);
        assertNotSame(handle, packets);
        assertSame(packets, PacketSecurityAccess.of(handle), "one per handle: its connections share it");
        assertEquals(SecurityIndex.RXKAD, packets.securityIndex());
        assertEquals("rxkad", packets.name());
        assertEquals(handle.toString(), packets.toString());
    }

    @Test
    void aPacketSecurityIsItsOwnPacketWork() {
        assertSame(RxNullPackets.INSTANCE, PacketSecurityAccess.of(RxNullPackets.INSTANCE));
    }

    @Test
    void aClassWrittenOutsideTheLibraryHasNone() {
        SecurityClass foreign = new SecurityClass() {
            @Override
            public int securityIndex() {
                return SecurityIndex.RXKAD;
            }

            @Override
            public String name() {
                return "foreign";
            }
        };
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> PacketSecurityAccess.of(foreign));
        assertTrue(e.getMessage().contains("not one of rx4j's security classes"), e.getMessage());
    }

    @Test
    void aHandleClassIsRegisteredOnce() {
        PacketSecurityAccess.of(RxNullSecurityClass.INSTANCE);
        assertThrows(IllegalStateException.class,
                () -> PacketSecurityAccess.register(RxNullSecurityClass.class, c -> RxNullPackets.INSTANCE));
    }
}
