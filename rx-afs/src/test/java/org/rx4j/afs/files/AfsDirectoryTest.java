// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.afs.files;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link AfsDirectory} on directories fetched from an OpenAFS 1.8.9 fileserver (the test cell of
 * scripts/interop/afs-cell.sh), compared with what OpenAFS's own client library lists for them:
 *
 * <ul>
 *   <li>{@code fixture.dir}: 6 pages; 300 files {@code file-0000..0299} made, every 7th removed again (free slots
 *       between entries), then names of 1, 15, 16, 47, 48 and 255 bytes, a UTF-8 name, one with spaces and
 *       {@code #%}, and a subdirectory. Fetched with {@code afsq cat --fid 536870921.3.2 -c afstest.example}.
 *   <li>{@code small.dir}: a new volume's root with one mount point (one page).
 * </ul>
 *
 * <p>The {@code .afscp-ls} files are {@code scripts/interop/afscp-ls} (libafscp's afscp_ReadDir) on the same
 * fids, "vnode.unique name" per line in the library's order.
 */
class AfsDirectoryTest {
    private static byte[] resource(String name) throws IOException {
        try (InputStream in = AfsDirectoryTest.class.getResourceAsStream(name)) {
            return in.readAllBytes();
        }
    }

    private static List<String> listed(AfsDirectory d) {
        List<String> out = new ArrayList<>();
        for (AfsDirectory.Entry e : d.entries()) {
            out.add(Integer.toUnsignedString(e.vnode()) + "." + Integer.toUnsignedString(e.unique()) + " "
                    + AfsNames.fromWire(e.name()));
        }
        return out;
    }

    private static List<String> reference(String name) throws IOException {
        return new String(resource(name), StandardCharsets.UTF_8).lines().toList();
    }

    @Test
    void listsWhatOpenAfsListsInItsOrder() throws IOException {
        AfsDirectory d = AfsDirectory.parse(resource("fixture.dir"));
        assertEquals(6, d.pages());
        assertEquals(268, d.entries().size());
        assertEquals(reference("fixture.afscp-ls"), listed(d));
    }

    @Test
    void readsANewVolumeRoot() throws IOException {
        AfsDirectory d = AfsDirectory.parse(resource("small.dir"));
        assertEquals(1, d.pages());
        assertEquals(reference("small.afscp-ls"), listed(d));
    }

    @Test
    void longAndUtf8NamesComeBackByteForByte() throws IOException {
        AfsDirectory d = AfsDirectory.parse(resource("fixture.dir"));
        for (String name : List.of("x", "exactly15bytes_", "sixteen_bytes_16",
                "a-name-of-forty-seven-bytes-which-spans-2-slots", "a-name-of-forty-eight-bytes-which-spans-3-slots!",
                "grüße ünïcödé name", "with space and #%", "n".repeat(255))) {
            AfsDirectory.Entry e = d.lookup(AfsNames.toWire(name)).orElseThrow(() -> new AssertionError(name));
            assertArrayEquals(name.getBytes(StandardCharsets.UTF_8), e.name().getBytes(StandardCharsets.ISO_8859_1));
        }
    }

    @Test
    void everyEntryIsFoundOnItsHashChainAndRemovedNamesAreNot() throws IOException {
        AfsDirectory d = AfsDirectory.parse(resource("fixture.dir"));
        for (AfsDirectory.Entry e : d.entries()) {
            assertEquals(e, d.lookup(e.name()).orElseThrow(() -> new AssertionError(e.name())));
        }
        assertTrue(d.lookup("file-0007").isEmpty());
        assertTrue(d.lookup("file-0294").isEmpty());
        assertTrue(d.lookup("no such name").isEmpty());
        assertTrue(d.lookup("file-0008").isPresent());
    }

    @Test
    void hashFoldsSignedBytes() {
        assertEquals(0, AfsDirectory.hash(""));
        assertEquals('.', AfsDirectory.hash("."));
        // 0xC3 is a negative C char: -61 folds to a negative sum, whose low bits are mirrored
        assertEquals(AfsDirectory.HASH_SIZE - ((-61) & 127), AfsDirectory.hash("\u00c3"));
    }

    @Test
    void refusesWhatIsNotADirectory() throws IOException {
        byte[] good = resource("small.dir");
        assertThrows(AfsFormatException.class, () -> AfsDirectory.parse(new byte[100]));
        assertThrows(AfsFormatException.class, () -> AfsDirectory.parse(new byte[2048 * 1024]));

        byte[] badTag = good.clone();
        badTag[3] = 0;
        assertThrows(AfsFormatException.class, () -> AfsDirectory.parse(badTag));

        // a chain head pointing into the header (slot 5), past the data (slot 64 of a 1-page directory)
        for (int slot : new int[] {5, 64}) {
            byte[] bad = good.clone();
            int bucket = firstUsedBucket(bad);
            bad[160 + 2 * bucket] = (byte) (slot >> 8);
            bad[161 + 2 * bucket] = (byte) slot;
            assertThrows(AfsFormatException.class, () -> AfsDirectory.parse(bad), "slot " + slot);
        }

        // an entry whose next points at itself: a loop
        byte[] loop = good.clone();
        int head = headOf(loop, firstUsedBucket(loop));
        loop[head * 32 + 2] = (byte) (head >> 8);
        loop[head * 32 + 3] = (byte) head;
        assertThrows(AfsFormatException.class, () -> AfsDirectory.parse(loop));

        // an entry without its first-slot flag, and a name with no NUL before the page's end
        byte[] noFlag = good.clone();
        noFlag[head * 32] = 0;
        assertThrows(AfsFormatException.class, () -> AfsDirectory.parse(noFlag));
        byte[] noNul = good.clone();
        for (int i = head * 32 + 12; i < 2048; i++) {
            noNul[i] = 'a';
        }
        assertThrows(AfsFormatException.class, () -> AfsDirectory.parse(noNul));
    }

    private static int firstUsedBucket(byte[] d) {
        for (int b = 0; b < 128; b++) {
            if (headOf(d, b) != 0) {
                return b;
            }
        }
        throw new AssertionError("no entries");
    }

    private static int headOf(byte[] d, int bucket) {
        return ((d[160 + 2 * bucket] & 0xff) << 8) | (d[161 + 2 * bucket] & 0xff);
    }
}
