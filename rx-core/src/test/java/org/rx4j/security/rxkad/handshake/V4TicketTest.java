// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.security.rxkad.handshake;

import java.util.HexFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.rx4j.security.SecurityAbortException;
import org.rx4j.security.rxkad.RxkadCodes;
import org.rx4j.security.rxkad.ServerKey;
import org.rx4j.security.rxkad.ServerKeySource;
import org.rx4j.security.rxkad.TicketLifetime;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * v4-style tickets and their lifetimes against a ticket made by Debian's OpenAFS 1.8.9 (tkt_MakeTicket through
 * rxkad_peer.c), round trips, and the time and format checks with their RXKAD codes.
 */
class V4TicketTest {
    private static final HexFormat HEX = HexFormat.of();
    private static final long SERVER_KEY = 0x0123456789abcdefL;
    private static final long START = 0x60000000L;
    /** tkt_MakeTicket(key 0123456789abcdef, "admin", "", "example.org", START, START + 0x9600, session
     *  fedcba9876543210, host 127.0.0.1, "afs", ""). */
    private static final String OPENAFS_TICKET = "2212ffff12100bd306445376ec2ede0f3a5db3688e3acc956e20051c5f6afb91"
            + "f0188c3f62d6e37efb4953a0fc1b2517";

    @Test
    void sealMatchesOpenAfsAndUnsealReadsIt() throws SecurityAbortException {
        V4Ticket t = new V4Ticket("admin", "", "example.org", 0x7f000001, 0xfedcba9876543210L, START,
                START + 0x9600, "afs", "");
        assertEquals(OPENAFS_TICKET, HEX.formatHex(t.seal(SERVER_KEY)));
        assertEquals(t, V4Ticket.unseal(HEX.parseHex(OPENAFS_TICKET), SERVER_KEY));
        assertFalse(t.toString().contains("fedcba"), "no session key in toString");
    }

    /**
     * The longest v4-style ticket (every name 63 bytes) seals to {@link V4Ticket#MAX_SEALED} bytes and opens; one block
     * more is refused before the key is looked up or any DES work is done (docs/robustness.md "Rule: a forged
     * RESPONSE is cheap").
     */
    @Test
    void aTicketLongerThanItsFormatIsRefusedBeforeTheKeyIsLookedUp() throws SecurityAbortException {
        String n = "n".repeat(63);
        V4Ticket longest = new V4Ticket(n, n, n, 1, 0xfedcba9876543210L, START, START + 0x9600, n, n);
        byte[] sealed = longest.seal(SERVER_KEY);
        assertEquals(V4Ticket.MAX_SEALED, sealed.length);
        assertEquals(longest, V4Ticket.unseal(sealed, SERVER_KEY));
        int[] lookups = new int[1];
        ServerKeySource counting = new ServerKeySource() {
            @Override
            public java.util.List<ServerKey> keys() {
                lookups[0]++;
                return java.util.List.of(new ServerKey(ServerKey.RXKAD, 1, 0, HEX.parseHex("0123456789abcdef")));
            }
        };
        TicketOpener opener = new TicketOpener(counting);
        for (int length : new int[] {V4Ticket.MAX_SEALED + 8, 1_000, 12_000}) {
            assertCode(RxkadCodes.RXKADBADTICKET, () -> opener.open(1, new byte[length], START));
        }
        assertEquals(0, lookups[0], "no key looked up for a ticket no v4 ticket can be");
        // Not even a weak key is noticed: the length alone refuses it.
        assertCode(RxkadCodes.RXKADBADTICKET, () -> V4Ticket.unseal(new byte[12_000], 0x0101010101010101L));
    }

    @Test
    void lifetimeBytes() {
        assertEquals(START + 0x9600, TicketLifetime.endTime(START, 0x80));
        assertEquals(START + 10 * 300, TicketLifetime.endTime(START, 10));
        assertEquals(START + 30 * 24 * 3600, TicketLifetime.endTime(START, 0xbf));
        assertEquals(START + 30 * 24 * 3600, TicketLifetime.endTime(START, 0xc0));
        assertEquals(TicketLifetime.NEVER, TicketLifetime.endTime(START, 0xff));
        assertEquals(0x80, TicketLifetime.lifeByte(START, START + 0x9600));
        assertEquals(1, TicketLifetime.lifeByte(START, START + 1));
        assertEquals(0x81, TicketLifetime.lifeByte(START, START + 38401));
        assertEquals(0xbf, TicketLifetime.lifeByte(START, START + 30 * 24 * 3600));
        assertEquals(0, TicketLifetime.lifeByte(START, START + 30 * 24 * 3600 + 1));
        assertEquals(0, TicketLifetime.lifeByte(START, START));
        assertEquals(0xff, TicketLifetime.lifeByte(START, TicketLifetime.NEVER));
    }

    @Test
    void badTicketsGetBadTicket() throws SecurityAbortException {
        byte[] good = HEX.parseHex(OPENAFS_TICKET);
        assertCode(RxkadCodes.RXKADBADTICKET, () -> V4Ticket.unseal(good, 0x0123456789abcdfeL));
        assertCode(RxkadCodes.RXKADBADKEY, () -> V4Ticket.unseal(good, SERVER_KEY ^ 1));
        assertCode(RxkadCodes.RXKADBADKEY, () -> V4Ticket.unseal(good, 0x0101010101010101L));
        assertThrows(IllegalArgumentException.class, () -> new V4Ticket("a", "", "c", 0, 1, START, START + 60, "afs",
                "").seal(SERVER_KEY ^ 1));
        assertCode(RxkadCodes.RXKADBADTICKET, () -> V4Ticket.unseal(new byte[44], SERVER_KEY));
        assertCode(RxkadCodes.RXKADBADTICKET, () -> V4Ticket.unseal(new byte[24], SERVER_KEY));
        // A ticket longer than its contents is refused, except at 56 bytes (old fixed-size tickets).
        byte[] longer = new byte[good.length + 16];
        System.arraycopy(good, 0, longer, 0, good.length);
        assertCode(RxkadCodes.RXKADBADTICKET, () -> V4Ticket.unseal(longer, SERVER_KEY));
        byte[] fixed = new byte[56];
        System.arraycopy(good, 0, fixed, 0, good.length);
        assertEquals("admin", V4Ticket.unseal(fixed, SERVER_KEY).name());
        assertThrows(IllegalArgumentException.class, () -> new V4Ticket("", "", "c", 0, 1, START, START + 60, "afs",
                "").seal(SERVER_KEY));
        assertThrows(IllegalArgumentException.class, () -> new V4Ticket("a".repeat(64), "", "c", 0, 1, START,
                START + 60, "afs", "").seal(SERVER_KEY));
        assertThrows(IllegalArgumentException.class, () -> new V4Ticket("a", "", "c", 0, 1, START, START, "afs", "")
                .seal(SERVER_KEY));
    }

    @Test
    void timesAreCheckedWithFifteenMinutesOfSkew() throws SecurityAbortException {
        V4Ticket t = new V4Ticket("a", "", "", 0, 1, START, START + 3600, "afs", "");
        t.checkTimes(START);
        t.checkTimes(START - 900);
        t.checkTimes(START + 3600 + 900);
        assertCode(RxkadCodes.RXKADNOAUTH, () -> t.checkTimes(START - 901));
        assertCode(RxkadCodes.RXKADEXPIRED, () -> t.checkTimes(START + 3600 + 901));
        assertCode(RxkadCodes.RXKADBADTICKET, () -> t.checkTimes(START + 32L * 24 * 3600));
        V4Ticket backwards = new V4Ticket("a", "", "", 0, 1, START, START - 1, "afs", "");
        assertCode(RxkadCodes.RXKADBADTICKET, () -> backwards.checkTimes(START));
    }

    private static void assertCode(int code, Executable e) {
        SecurityAbortException x = assertThrows(SecurityAbortException.class, e);
        assertEquals(RxkadCodes.name(code), RxkadCodes.name(x.code()), x.getMessage());
    }
}
