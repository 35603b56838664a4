// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.security.rxkad;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.List;
import java.util.Optional;
import org.rx4j.security.rxkad.crypto.Blocks;
import org.rx4j.security.rxkad.crypto.Krb5Crypto;
import org.rx4j.security.rxkad.crypto.RxkadKdf;
import org.rx4j.security.rxkad.handshake.V4Ticket;

/**
 * Credentials minted from a server's own keys, as OpenAFS's {@code -localauth} does (docs/security.md
 * "Credentials"): whoever can read the server's key files is the superuser {@code afs} of the cell.
 *
 * <p>The key, as OpenAFS picks it: among the rxkad_krb5 keys, the highest kvno, and within it the first enctype of
 * 18, 17, 23, 16 it has; with such a key the ticket is a Kerberos 5 {@code EncryptedData} (the "2b" form, kvno 213)
 * of an EncTicketPart for {@code afs} with an empty realm, a DES-CBC-CRC session key, authtime 0 and endtime
 * 0x7fffffff, encrypted under that key. Otherwise the DES key of the highest kvno (not 999, which OpenAFS keeps for
 * another use) seals a v4-style ticket for {@code afs} with an empty instance and cell, start 0 and no expiry. The
 * session key is a random DES key with odd parity, not weak.
 */
public final class LocalAuth {
    /** The name OpenAFS's local tickets carry (AUTH_SUPERUSER). */
    public static final String SUPERUSER = "afs";
    /** The end time of a local Kerberos 5 ticket. */
    static final long KRB5_END = 0x7fffffffL;
    /** A DES kvno OpenAFS skips when picking the latest key. */
    private static final int SKIPPED_KVNO = 999;
    private static final int[] ENCTYPE_PREFERENCE = {18, 17, 23, 16};
    private static final int DES_CBC_CRC = 1;

    private LocalAuth() {
    }

    /**
     * @param dir a server configuration directory with KeyFile and/or KeyFileExt
     * @param random the source of the session key and confounder
     * @return credentials for {@code afs}
     * @throws IOException if the directory is missing or holds neither KeyFile nor KeyFileExt, or the key files cannot
     *     be read, are malformed, or hold no usable key; the message names the directory
     */
    public static RxkadCredentials fromDirectory(Path dir, SecureRandom random) throws IOException {
        if (!Files.isDirectory(dir)) {
            throw new IOException("server configuration directory " + dir + ": no such directory");
        }
        if (!Files.exists(dir.resolve("KeyFile")) && !Files.exists(dir.resolve("KeyFileExt"))) {
            throw new IOException("server configuration directory " + dir + " holds neither KeyFile nor KeyFileExt");
        }
        try {
            return fromKeys(new KeyDirectory(dir).keys(), random);
        } catch (IOException e) {
            throw new IOException("server configuration directory " + dir + ": " + e.getMessage(), e);
        }
    }

    /**
     * @param keys the server's keys (KeyFile and KeyFileExt)
     * @param random the source of the session key and confounder
     * @return credentials for {@code afs}
     * @throws IOException if there is no usable key: no DES key and no rxkad_krb5 key of a preferred enctype, or
     *     the chosen key does not fit its enctype or type
     */
    public static RxkadCredentials fromKeys(List<ServerKey> keys, SecureRandom random) throws IOException {
        long session = randomDesKey(random);
        Optional<ServerKey> k5 = latestKrb5(keys);
        if (k5.isPresent()) {
            ServerKey k = k5.get();
            byte[] sessionBytes = new byte[8];
            Blocks.put(sessionBytes, 0, session);
            EncTicketPart part = new EncTicketPart(EncTicketPart.TRANSITED_POLICY_CHECKED, DES_CBC_CRC, sessionBytes,
                    "", List.of(SUPERUSER), 0, 0, KRB5_END);
            byte[] cipher;
            try {
                cipher = Krb5Crypto.encrypt(k.subType(), k.key(), Krb5Crypto.USAGE_TICKET, part.encode(), random);
            } catch (IllegalArgumentException e) {
                throw new IOException("rxkad_krb5 key kvno " + k.kvno() + " does not fit its enctype", e);
            }
            byte[] ticket = new Krb5Ticket(null, k.subType(), k.kvno(), cipher).encodeEncryptedData();
            return new RxkadCredentials(new SessionKey(session), Krb5Ticket.KVNO_ENC_PART_ONLY, ticket, KRB5_END,
                    SUPERUSER);
        }
        ServerKey des = keys.stream()
                .filter(k -> k.type() == ServerKey.RXKAD && k.kvno() != SKIPPED_KVNO && k.key().length == 8)
                .max((x, y) -> Integer.compare(x.kvno(), y.kvno()))
                .orElseThrow(() -> new IOException("no rxkad (DES) or rxkad_krb5 key of enctype 18, 17, 23 or 16"));
        if (des.kvno() < 0 || des.kvno() > 255) {
            throw new IOException("DES key version " + des.kvno() + " is outside 0..255");
        }
        V4Ticket t = new V4Ticket(SUPERUSER, "", "", 0, session, 0, TicketLifetime.NEVER, SUPERUSER, "");
        byte[] ticket;
        try {
            ticket = t.seal(Blocks.get(des.key(), 0));
        } catch (IllegalArgumentException e) {
            throw new IOException("DES key kvno " + des.kvno() + " is unusable", e);
        }
        return new RxkadCredentials(new SessionKey(session), des.kvno(), ticket, TicketLifetime.NEVER, SUPERUSER);
    }

    /** The rxkad_krb5 key OpenAFS's local authentication picks, if any. */
    static Optional<ServerKey> latestKrb5(List<ServerKey> keys) {
        Optional<Integer> best = keys.stream().filter(k -> k.type() == ServerKey.RXKAD_KRB5).map(ServerKey::kvno)
                .max(Integer::compare);
        if (best.isEmpty()) {
            return Optional.empty();
        }
        for (int enctype : ENCTYPE_PREFERENCE) {
            Optional<ServerKey> k = keys.stream().filter(x -> x.type() == ServerKey.RXKAD_KRB5
                    && x.kvno() == best.get() && x.subType() == enctype).findFirst();
            if (k.isPresent()) {
                return k;
            }
        }
        return Optional.empty();
    }

    /** A random DES key with odd parity that is not weak, as the session key of a minted ticket. */
    static long randomDesKey(SecureRandom random) {
        while (true) {
            long k = RxkadKdf.withOddParity(random.nextLong());
            if (!RxkadKdf.isWeak(k)) {
                return k;
            }
        }
    }
}
