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

/**
 * Reads an MIT Kerberos 5 keytab (MIT's documented "keytab file format", version 0x0502; docs/security.md
 * "Kerberos 5"): the service keys {@code ktadd} exports, for a service that accepts rxkad-k5 tickets.
 *
 * <p>Layout, integers big-endian: 0x05 0x02, then entries to the end of the file, each a signed 32-bit length
 * (negative: a hole of that many bytes, skipped) and the entry: the component count (16 bits), the realm and the
 * components (16-bit length and bytes each), the name type (32 bits), a timestamp (32 bits), an 8-bit kvno, the key
 * (16-bit enctype, 16-bit length, bytes), and, when at least 4 bytes of the entry remain, a 32-bit kvno that
 * replaces the 8-bit one unless it is 0. Malformed files are an {@link IOException} that names the fault, never key
 * bytes.
 */
public final class Keytab {
    private final List<Entry> entries;

    private Keytab(List<Entry> entries) {
        this.entries = List.copyOf(entries);
    }

    /**
     * One key of a keytab. The key never appears in {@link #toString()}.
     *
     * @param principal the service principal
     * @param kvno the key version
     * @param enctype the key's enctype
     * @param key the key bytes (copied)
     */
    public record Entry(Krb5Principal principal, int kvno, int enctype, byte[] key) {
        /**
         * @throws NullPointerException if an argument is null
         */
        public Entry {
            key = key.clone();
        }

        /** @return a copy of the key bytes */
        @Override
        public byte[] key() {
            return key.clone();
        }

        /** @return the key as an rxkad_krb5 server key (type {@link ServerKey#RXKAD_KRB5}, sub-type the enctype) */
        public ServerKey serverKey() {
            return new ServerKey(ServerKey.RXKAD_KRB5, kvno, enctype, key);
        }

        /** @return principal, kvno and enctype, not the key */
        @Override
        public String toString() {
            return "Keytab.Entry[" + principal + ", kvno=" + kvno + ", enctype=" + enctype + "]";
        }
    }

    /** @return the entries in file order */
    public List<Entry> entries() {
        return entries;
    }

    /**
     * @param principal the service principal, e.g. {@code afs/cell@REALM}
     * @return its keys as rxkad_krb5 server keys, in file order
     */
    public List<ServerKey> serverKeys(Krb5Principal principal) {
        List<ServerKey> out = new ArrayList<>();
        for (Entry e : entries) {
            if (e.principal().equals(principal)) {
                out.add(e.serverKey());
            }
        }
        return out;
    }

    /**
     * @param file a keytab file
     * @return its entries
     * @throws IOException if the file cannot be read or is malformed
     */
    public static Keytab read(Path file) throws IOException {
        return parse(Files.readAllBytes(file));
    }

    /**
     * @param bytes the contents of a keytab file
     * @return its entries
     * @throws IOException if they are malformed or of another version than 0x0502
     */
    public static Keytab parse(byte[] bytes) throws IOException {
        ByteBuffer b = ByteBuffer.wrap(bytes);
        List<Entry> entries = new ArrayList<>();
        try {
            int version = b.getShort() & 0xffff;
            if (version != 0x0502) {
                throw new IOException(String.format("keytab version 0x%04x is not 0x0502", version));
            }
            while (b.remaining() >= 4) {
                int length = b.getInt();
                if (length == 0) {
                    break;
                }
                int size = length < 0 ? -length : length;
                if (size > b.remaining()) {
                    throw new IOException("keytab entry of " + size + " bytes with " + b.remaining() + " left");
                }
                if (length < 0) {
                    b.position(b.position() + size);
                    continue;
                }
                ByteBuffer e = b.slice(b.position(), size);
                b.position(b.position() + size);
                entries.add(entry(e));
            }
        } catch (BufferUnderflowException e) {
            throw new IOException("keytab ends inside an entry", e);
        }
        return new Keytab(entries);
    }

    private static Entry entry(ByteBuffer e) throws IOException {
        int n = e.getShort() & 0xffff;
        String realm = string(e);
        List<String> parts = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            parts.add(string(e));
        }
        e.getInt(); // name type
        e.getInt(); // timestamp
        int kvno = e.get() & 0xff;
        int enctype = e.getShort() & 0xffff;
        byte[] key = new byte[e.getShort() & 0xffff];
        e.get(key);
        if (e.remaining() >= 4) {
            int kvno32 = e.getInt();
            if (kvno32 != 0) {
                kvno = kvno32;
            }
        }
        return new Entry(new Krb5Principal(realm, parts), kvno, enctype, key);
    }

    private static String string(ByteBuffer e) {
        byte[] s = new byte[e.getShort() & 0xffff];
        e.get(s);
        return new String(s, StandardCharsets.UTF_8);
    }

    /** @return the entry count, no keys */
    @Override
    public String toString() {
        return "Keytab[" + entries.size() + " entries]";
    }
}
