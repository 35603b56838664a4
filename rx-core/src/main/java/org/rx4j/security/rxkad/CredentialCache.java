// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.security.rxkad;

import java.io.IOException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Reads an MIT Kerberos 5 file credential cache, as {@code kinit} and {@code kvno} write it (MIT's documented
 * "ccache file format", versions 3 and 4; docs/security.md "Kerberos 5"). The JDK reads such caches only
 * through internal classes, hence this reader.
 *
 * <p>Layout, integers big-endian: the version (0x0503 or 0x0504); for version 4 a header (its length, then tagged
 * fields, skipped); the default principal; then credentials to the end of the file. A principal is its name type,
 * its component count, the realm and the components, each a 32-bit length and bytes. A credential is the client
 * and server principals, the keyblock (a 16-bit enctype, twice in version 3, and the key), the auth, start, end
 * and renew-till times (32-bit seconds), the is-skey byte, the ticket flags, the addresses and authorization data
 * (counts of typed values, skipped), the ticket and the second ticket. Entries whose server realm is {@code
 * X-CACHECONF:} are configuration, not credentials, and are left out. Malformed files are an {@link IOException}
 * that names the fault, never key or ticket bytes.
 *
 * @param defaultPrincipal the cache's default (client) principal
 * @param credentials the credentials in file order, configuration entries left out
 */
public record CredentialCache(Krb5Principal defaultPrincipal, List<Credential> credentials) {
    private static final String CONFIG_REALM = "X-CACHECONF:";
    /** Longest principal component or realm, or key, accepted (a guard against garbage lengths), bytes. */
    private static final int MAX_FIELD = 65536;

    /**
     * @throws NullPointerException if an argument is null
     */
    public CredentialCache {
        if (defaultPrincipal == null) {
            throw new NullPointerException("defaultPrincipal");
        }
        credentials = List.copyOf(credentials);
    }

    /**
     * One credential of the cache: a service ticket and its session key. The key and ticket never appear in
     * {@link #toString()}.
     *
     * @param client the client principal
     * @param server the service principal
     * @param keyType the session key's enctype
     * @param key the session key (copied)
     * @param authtime seconds since 1970
     * @param starttime seconds since 1970 (0 when not set)
     * @param endtime seconds since 1970
     * @param ticket the DER Ticket (copied)
     */
    public record Credential(Krb5Principal client, Krb5Principal server, int keyType, byte[] key, long authtime,
                             long starttime, long endtime, byte[] ticket) {
        /**
         * @throws NullPointerException if an argument is null
         */
        public Credential {
            key = key.clone();
            ticket = ticket.clone();
        }

        /** @return a copy of the session key */
        @Override
        public byte[] key() {
            return key.clone();
        }

        /** @return a copy of the DER Ticket */
        @Override
        public byte[] ticket() {
            return ticket.clone();
        }

        /** @return principals, enctype and times, not the key or ticket */
        @Override
        public String toString() {
            return "Credential[" + client + " for " + server + ", keyType=" + keyType + ", endtime=" + endtime
                    + ", " + ticket.length + "-byte ticket]";
        }
    }

    /**
     * @param file the cache file (the path of a {@code FILE:} ccache name)
     * @return its contents
     * @throws IOException if the file is missing, cannot be read or is malformed; the message names the file
     */
    public static CredentialCache read(Path file) throws IOException {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (java.nio.file.NoSuchFileException e) {
            throw new IOException("credential cache " + file + ": no such file", e);
        } catch (IOException e) {
            throw new IOException("credential cache " + file + ": " + e, e);
        }
        try {
            return parse(bytes);
        } catch (IOException e) {
            throw new IOException("credential cache " + file + ": " + e.getMessage(), e);
        }
    }

    /**
     * The cache {@code KRB5CCNAME} names, as MIT's default: a {@code FILE:} name or a plain path; unset, {@code
     * /tmp/krb5cc_UID} is MIT's default, which needs the numeric uid, so it is given by the caller.
     *
     * @param ccname the value of KRB5CCNAME
     * @return the file's path
     * @throws IOException if the name is of another cache type (DIR:, KEYRING:, KCM:, MEMORY:, API:)
     */
    public static Path fileOf(String ccname) throws IOException {
        if (ccname.startsWith("FILE:")) {
            return Path.of(ccname.substring(5));
        }
        int colon = ccname.indexOf(':');
        if (colon > 0 && !ccname.startsWith("/")) {
            throw new IOException("credential cache type " + ccname.substring(0, colon)
                    + " is not supported (only FILE: caches are read)");
        }
        return Path.of(ccname);
    }

    /**
     * @param bytes the contents of a cache file
     * @return its contents
     * @throws IOException if they are malformed
     */
    public static CredentialCache parse(byte[] bytes) throws IOException {
        ByteBuffer b = ByteBuffer.wrap(bytes);
        try {
            int version = b.getShort() & 0xffff;
            if (version != 0x0503 && version != 0x0504) {
                throw new IOException(String.format("credential cache version 0x%04x is not 0x0503 or 0x0504",
                        version));
            }
            if (version == 0x0504) {
                skip(b, b.getShort() & 0xffff);
            }
            Krb5Principal defaultPrincipal = principal(b);
            List<Credential> creds = new ArrayList<>();
            while (b.hasRemaining()) {
                Krb5Principal client = principal(b);
                Krb5Principal server = principal(b);
                int keyType = b.getShort();
                if (version == 0x0503) {
                    b.getShort(); // version 3 writes the enctype twice
                }
                byte[] key = counted(b);
                long authtime = b.getInt() & 0xffffffffL;
                long starttime = b.getInt() & 0xffffffffL;
                long endtime = b.getInt() & 0xffffffffL;
                b.getInt(); // renew-till
                b.get(); // is-skey
                b.getInt(); // ticket flags
                skipTyped(b); // addresses
                skipTyped(b); // authorization data
                byte[] ticket = counted(b);
                counted(b); // second ticket
                if (!server.realm().equals(CONFIG_REALM)) {
                    creds.add(new Credential(client, server, keyType, key, authtime, starttime, endtime, ticket));
                }
            }
            return new CredentialCache(defaultPrincipal, creds);
        } catch (BufferUnderflowException e) {
            throw new IOException("credential cache ends inside an entry", e);
        }
    }

    /**
     * The AFS service ticket for {@code cell}, the way aklog looks for one: {@code afs/CELL@REALM} first, then
     * {@code afs@REALM}, for the realm given (or the default principal's); of several, the one that ends last.
     *
     * @param cell the AFS cell name, as in {@code afs/CELL}
     * @param realm the Kerberos realm, or null for the default principal's
     * @return the credential, if the cache holds one
     */
    public Optional<Credential> findAfsTicket(String cell, String realm) {
        String r = realm != null ? realm : defaultPrincipal.realm();
        for (Krb5Principal want : List.of(new Krb5Principal(r, List.of("afs", cell)),
                new Krb5Principal(r, List.of("afs")))) {
            Optional<Credential> best = credentials.stream().filter(c -> c.server().equals(want))
                    .max((x, y) -> Long.compare(x.endtime(), y.endtime()));
            if (best.isPresent()) {
                return best;
            }
        }
        return Optional.empty();
    }

    private static Krb5Principal principal(ByteBuffer b) throws IOException {
        b.getInt(); // name type
        int n = b.getInt();
        if (n < 0 || n > 64) {
            throw new IOException("credential cache principal with " + n + " components");
        }
        String realm = new String(counted(b), StandardCharsets.UTF_8);
        List<String> parts = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            parts.add(new String(counted(b), StandardCharsets.UTF_8));
        }
        return new Krb5Principal(realm, parts);
    }

    private static byte[] counted(ByteBuffer b) throws IOException {
        int n = b.getInt();
        if (n < 0 || n > MAX_FIELD || n > b.remaining()) {
            throw new IOException("credential cache field of " + Integer.toUnsignedString(n) + " bytes with "
                    + b.remaining() + " left");
        }
        byte[] out = new byte[n];
        b.get(out);
        return out;
    }

    private static void skipTyped(ByteBuffer b) throws IOException {
        int n = b.getInt();
        if (n < 0 || n > MAX_FIELD) {
            throw new IOException("credential cache list of " + Integer.toUnsignedString(n) + " entries");
        }
        for (int i = 0; i < n; i++) {
            b.getShort();
            counted(b);
        }
    }

    private static void skip(ByteBuffer b, int n) throws IOException {
        if (n > b.remaining()) {
            throw new IOException("credential cache header runs past the file");
        }
        b.position(b.position() + n);
    }
}
