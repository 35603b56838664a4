// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.security.rxkad;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads an AFS server's key files as OpenAFS's {@code asetkey} writes them (docs/security.md "Server keys"); all
 * integers big-endian.
 *
 * <ul>
 *   <li>{@code KeyFile}: a key count, then per key its kvno and 8 DES key bytes. Older servers wrote a fixed-size
 *       file of 8 slots; bytes after the counted keys are ignored.</li>
 *   <li>{@code KeyFileExt}: a key count, then per key a record header (its length, at least 16, counting itself,
 *       then type, kvno and sub-type; a longer header's extra bytes are skipped), then the key length and the key
 *       bytes.</li>
 * </ul>
 * Malformed files are refused with an {@link IOException} saying what is wrong; no key bytes appear in messages.
 */
public final class KeyFiles {
    /** The record header length of the KeyFileExt version OpenAFS writes. */
    private static final int EXT_HEADER = 16;

    private KeyFiles() {
    }

    /**
     * @param file a KeyFile
     * @return its keys, in file order, each of type {@link ServerKey#RXKAD}
     * @throws IOException if the file cannot be read or is malformed
     */
    public static List<ServerKey> readKeyFile(Path file) throws IOException {
        return parseKeyFile(Files.readAllBytes(file));
    }

    /**
     * @param file a KeyFileExt
     * @return its keys, in file order
     * @throws IOException if the file cannot be read or is malformed
     */
    public static List<ServerKey> readKeyFileExt(Path file) throws IOException {
        return parseKeyFileExt(Files.readAllBytes(file));
    }

    /**
     * @param bytes the contents of a KeyFile
     * @return its keys, in file order
     * @throws IOException if the contents are malformed
     */
    public static List<ServerKey> parseKeyFile(byte[] bytes) throws IOException {
        ByteBuffer b = ByteBuffer.wrap(bytes);
        int n = count(b, "KeyFile");
        if ((long) n * 12 > b.remaining()) {
            throw new IOException("KeyFile counts " + n + " keys but holds " + b.remaining()
                    + " bytes after the count");
        }
        List<ServerKey> keys = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            int kvno = b.getInt();
            byte[] key = new byte[8];
            b.get(key);
            keys.add(new ServerKey(ServerKey.RXKAD, kvno, 0, key));
        }
        return keys;
    }

    /**
     * @param bytes the contents of a KeyFileExt
     * @return its keys, in file order
     * @throws IOException if the contents are malformed
     */
    public static List<ServerKey> parseKeyFileExt(byte[] bytes) throws IOException {
        ByteBuffer b = ByteBuffer.wrap(bytes);
        int n = count(b, "KeyFileExt");
        List<ServerKey> keys = new ArrayList<>(Math.min(n, 64));
        for (int i = 0; i < n; i++) {
            need(b, EXT_HEADER, i);
            int headerLength = b.getInt();
            if (headerLength < EXT_HEADER) {
                throw new IOException("KeyFileExt key " + i + ": record header of " + headerLength
                        + " bytes, at least 16 expected");
            }
            int type = b.getInt();
            int kvno = b.getInt();
            int subType = b.getInt();
            need(b, headerLength - EXT_HEADER, i);
            b.position(b.position() + headerLength - EXT_HEADER);
            need(b, 4, i);
            int keyLength = b.getInt();
            if (keyLength < 0) {
                throw new IOException("KeyFileExt key " + i + ": negative key length " + keyLength);
            }
            need(b, keyLength, i);
            byte[] key = new byte[keyLength];
            b.get(key);
            keys.add(new ServerKey(type, kvno, subType, key));
        }
        return keys;
    }

    private static int count(ByteBuffer b, String what) throws IOException {
        if (b.remaining() < 4) {
            throw new IOException(what + " is shorter than its 4-byte key count");
        }
        int n = b.getInt();
        if (n < 0) {
            throw new IOException(what + " has a negative key count " + n);
        }
        return n;
    }

    private static void need(ByteBuffer b, int bytes, int key) throws IOException {
        if (b.remaining() < bytes) {
            throw new IOException("KeyFileExt ends inside key " + key);
        }
    }
}
