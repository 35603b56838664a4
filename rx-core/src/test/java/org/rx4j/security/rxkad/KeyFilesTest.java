// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.security.rxkad;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

/** KeyFile and KeyFileExt in the layouts asetkey writes, and the refusal of malformed files. */
class KeyFilesTest {
    private static final HexFormat HEX = HexFormat.of();

    @Test
    void keyFileWithTwoKeys(@TempDir Path dir) throws IOException {
        Path f = dir.resolve("KeyFile");
        Files.write(f, HEX.parseHex("00000002" + "00000003" + "0123456789abcdef" + "000000ff" + "fedcba9876543210"));
        List<ServerKey> keys = KeyFiles.readKeyFile(f);
        assertEquals(2, keys.size());
        assertEquals(new ServerKey(ServerKey.RXKAD, 3, 0, HEX.parseHex("0123456789abcdef")), keys.get(0));
        assertEquals(255, keys.get(1).kvno());
        assertArrayEquals(HEX.parseHex("fedcba9876543210"), keys.get(1).key());
        assertFalse(keys.get(0).toString().contains("0123456789abcdef"), "no key bytes in toString");
    }

    @Test
    void oldFixedSizeKeyFileIgnoresUnusedSlots() throws IOException {
        byte[] file = new byte[100];
        System.arraycopy(HEX.parseHex("00000001000000070101010101010101"), 0, file, 0, 16);
        List<ServerKey> keys = KeyFiles.parseKeyFile(file);
        assertEquals(1, keys.size());
        assertEquals(7, keys.get(0).kvno());
    }

    @Test
    void keyFileExtWithDesAndKrb5Keys(@TempDir Path dir) throws IOException {
        String des = "00000010" + "00000000" + "00000004" + "00000000" + "00000008" + "0123456789abcdef";
        // An AES-256 (enctype 18) rxkad_krb5 key with a record header 4 bytes longer than today's.
        String aes = "00000014" + "00000002" + "00000005" + "00000012" + "cafebabe" + "00000020"
                + "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";
        Path f = dir.resolve("KeyFileExt");
        Files.write(f, HEX.parseHex("00000002" + des + aes));
        List<ServerKey> keys = KeyFiles.readKeyFileExt(f);
        assertEquals(new ServerKey(ServerKey.RXKAD, 4, 0, HEX.parseHex("0123456789abcdef")), keys.get(0));
        ServerKey k = keys.get(1);
        assertEquals(ServerKey.RXKAD_KRB5, k.type());
        assertEquals(5, k.kvno());
        assertEquals(18, k.subType());
        assertEquals(32, k.key().length);
    }

    @Test
    void malformedFilesAreRefused() {
        assertMalformed("shorter than its 4-byte key count", () -> KeyFiles.parseKeyFile(new byte[3]));
        assertMalformed("negative key count", () -> KeyFiles.parseKeyFile(HEX.parseHex("ffffffff")));
        assertMalformed("counts 2 keys", () -> KeyFiles.parseKeyFile(HEX.parseHex("00000002000000010123456789abcdef")));
        assertMalformed("record header of 12", () -> KeyFiles.parseKeyFileExt(HEX.parseHex(
                "00000001" + "0000000c" + "00000000" + "00000001" + "00000000" + "00000000")));
        assertMalformed("ends inside key 0", () -> KeyFiles.parseKeyFileExt(HEX.parseHex(
                "00000001" + "00000010" + "00000000" + "00000001" + "00000000" + "00000008" + "0123")));
        assertMalformed("negative key length", () -> KeyFiles.parseKeyFileExt(HEX.parseHex(
                "00000001" + "00000010" + "00000000" + "00000001" + "00000000" + "80000000")));
        assertMalformed("ends inside key 1", () -> KeyFiles.parseKeyFileExt(HEX.parseHex(
                "00000002" + "00000010" + "00000000" + "00000001" + "00000000" + "00000000")));
    }

    private static void assertMalformed(String message, Executable e) {
        IOException x = assertThrows(IOException.class, e);
        assertTrue(x.getMessage().contains(message), x.getMessage());
    }
}
