// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.security.rxkad;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.rx4j.security.SecurityAbortException;
import org.rx4j.security.rxkad.crypto.Krb5Crypto;
import org.rx4j.security.rxkad.handshake.Krb5TicketOpener;
import org.rx4j.security.rxkad.handshake.V4Ticket;

/**
 * docs/robustness.md "Rule: a forged RESPONSE is cheap", Kerberos 5 tickets: a forged enc-part is refused on its
 * first plaintext block, before the whole decryption and checksum, for every enctype; a real one of any name length
 * (every DER length form) still opens.
 */
class ForgedKrb5TicketTest {
    private static final int[] ENCTYPES = {16, 17, 18, 23};

    private static SecureRandom random() {
        return new SecureRandom(new byte[] {29});
    }

    private static ServerKey key(int enctype, SecureRandom random) {
        byte[] k = new byte[switch (enctype) {
            case 16 -> 24;
            case 18 -> 32;
            default -> 16;
        }];
        random.nextBytes(k);
        return new ServerKey(ServerKey.RXKAD_KRB5, 3, enctype, k);
    }

    private static byte[] ticket(ServerKey k, String name, String instance, String realm, SecureRandom random) {
        byte[] session = new byte[8];
        random.nextBytes(session);
        List<String> cname = instance.isEmpty() ? List.of(name) : List.of(name, instance);
        EncTicketPart part = new EncTicketPart(EncTicketPart.TRANSITED_POLICY_CHECKED, 1, session, realm, cname, 0, 0,
                0x7fffffffL);
        byte[] cipher = Krb5Crypto.encrypt(k.subType(), k.key(), Krb5Crypto.USAGE_TICKET, part.encode(), random);
        return new Krb5Ticket(null, k.subType(), k.kvno(), cipher).encodeEncryptedData();
    }

    /** The head is the decrypted plaintext's first bytes for every enctype and length; too short: null. */
    @Test
    void theHeadIsTheStartOfTheWholeDecryption() throws GeneralSecurityException {
        SecureRandom random = random();
        for (int enctype : ENCTYPES) {
            byte[] key = key(enctype, random).key();
            byte[] other = key(enctype, random).key();
            int heads = 0;
            for (int length = 1; length <= 100; length++) {
                byte[] plain = new byte[length];
                random.nextBytes(plain);
                byte[] c = Krb5Crypto.encrypt(enctype, key, Krb5Crypto.USAGE_TICKET, plain, random);
                // Another key in between: the per-thread keys must follow the key asked for.
                Krb5Crypto.encrypt(enctype, other, Krb5Crypto.USAGE_TICKET, plain, random);
                byte[] whole = Krb5Crypto.decrypt(enctype, key, Krb5Crypto.USAGE_TICKET, c);
                assertEquals(whole.length, Krb5Crypto.plainLength(enctype, c.length), "enctype " + enctype);
                byte[] head = Krb5Crypto.head(enctype, key, Krb5Crypto.USAGE_TICKET, c);
                if (head == null) {
                    assertTrue(length <= 32, "enctype " + enctype + ": no head for " + length + " bytes");
                    continue;
                }
                heads++;
                assertArrayEquals(Arrays.copyOf(whole, Krb5Crypto.HEAD), head, "enctype " + enctype + ", " + length);
            }
            assertTrue(heads >= 68, "enctype " + enctype + ": heads for " + heads + " lengths");
        }
    }

    /** Real tickets open whatever their names' lengths (short, 0x81 and 0x82 length forms). */
    @Test
    void realTicketsOfEveryLengthFormOpen() throws SecurityAbortException {
        SecureRandom random = random();
        for (int enctype : ENCTYPES) {
            ServerKey k = key(enctype, random);
            Krb5TicketOpener opener = new Krb5TicketOpener(ServerKeySource.of(List.of(k)));
            for (int n : new int[] {1, 20, 40, 63}) {
                String name = "u".repeat(n);
                String instance = n == 1 ? "" : "i".repeat(n);
                String realm = "R".repeat(n);
                V4Ticket t = opener.open(Krb5Ticket.KVNO_ENC_PART_ONLY, ticket(k, name, instance, realm, random));
                assertEquals(name, t.name(), "enctype " + enctype);
                assertEquals(instance, t.instance());
                assertEquals(realm, t.cell());
            }
        }
    }

    /**
     * A ticket whose cipher text is random, or a real ticket with its first cipher block changed, is refused on the
     * first block, for every enctype and length up to 12,000 bytes; a real ticket with only its last byte changed
     * gets past the first block and fails the checksum.
     */
    @Test
    void forgedTicketsAreRefusedOnTheirFirstBlock() {
        SecureRandom random = random();
        for (int enctype : ENCTYPES) {
            ServerKey k = key(enctype, random);
            Krb5TicketOpener opener = new Krb5TicketOpener(ServerKeySource.of(List.of(k)));
            for (int bytes : new int[] {80, 344, 1_000, 12_000}) {
                for (int trial = 0; trial < 20; trial++) {
                    byte[] cipher = new byte[bytes];
                    random.nextBytes(cipher);
                    byte[] forged = new Krb5Ticket(null, enctype, k.kvno(), cipher).encodeEncryptedData();
                    assertRefusedOnTheFirstBlock(opener, forged, "enctype " + enctype + ", " + bytes + " bytes");
                }
            }
            byte[] real = ticket(k, "admin", "", "EXAMPLE.ORG", random);
            Krb5Ticket t = decode(real);
            byte[] late = t.cipher().clone();
            late[late.length - 1] ^= 1;
            if (enctype != 23) { // rc4-hmac's first block is its checksum, which keys every byte
                assertRefusedOnTheFirstBlock(opener,
                        new Krb5Ticket(null, enctype, k.kvno(), alteredFirstBlock(t.cipher()))
                                .encodeEncryptedData(), "enctype " + enctype + ", first block altered");
            }
            SecurityAbortException e = assertThrows(SecurityAbortException.class, () -> opener.open(
                    Krb5Ticket.KVNO_ENC_PART_ONLY, new Krb5Ticket(null, enctype, k.kvno(), late)
                            .encodeEncryptedData()));
            assertEquals(RxkadCodes.RXKADBADTICKET, e.code());
            assertFalse(e.getMessage().contains("first block"), e.getMessage());
        }
    }

    private static byte[] alteredFirstBlock(byte[] cipher) {
        byte[] c = cipher.clone();
        // AES: C1 is xored into the head; des3: the confounder's cipher block is the head's IV. Either way the
        // head's first byte (the [APPLICATION 3] tag) changes.
        c[0] ^= (byte) 0x80;
        return c;
    }

    private static Krb5Ticket decode(byte[] ticket) {
        try {
            return Krb5Ticket.decodeEncryptedData(ticket);
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
    }

    private static void assertRefusedOnTheFirstBlock(Krb5TicketOpener opener, byte[] ticket, String what) {
        SecurityAbortException e = assertThrows(SecurityAbortException.class,
                () -> opener.open(Krb5Ticket.KVNO_ENC_PART_ONLY, ticket), what);
        assertEquals(RxkadCodes.RXKADBADTICKET, e.code(), what);
        assertTrue(e.getMessage().endsWith("(its first block)"), what + ": " + e.getMessage());
    }

    /** The check refuses only what the DER reader refuses: every prefix of a real EncTicketPart passes it. */
    @Test
    void theFirstBlockCheckPassesEveryRealEncTicketPart() {
        SecureRandom random = random();
        for (int n = 1; n <= 63; n++) {
            byte[] session = new byte[8];
            random.nextBytes(session);
            byte[] der = new EncTicketPart(0, 1, session, "R".repeat(n), List.of("u".repeat(n)), 0, 0, 1).encode();
            assertTrue(EncTicketPart.couldStart(Arrays.copyOf(der, Krb5Crypto.HEAD), der.length), "name " + n);
            assertTrue(EncTicketPart.couldStart(Arrays.copyOf(der, Krb5Crypto.HEAD), der.length + 7), "padded");
            assertFalse(EncTicketPart.couldStart(Arrays.copyOf(der, Krb5Crypto.HEAD), der.length - 1), "cut");
        }
    }
}
