// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.afs.files;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collections;
import java.util.List;
import java.util.Optional;

/**
 * One AFS directory as the fileserver stores and sends it (FetchData64 of a directory vnode), parsed: 2048-byte
 * pages of 64 32-byte slots; page 0 starts with the directory header (the page header, a 128-byte allocation map
 * and a 128-entry hash table of 16-bit slot numbers), so its entries start at slot 13; an entry is a flag byte, a
 * length byte, the 16-bit number of the next entry on its hash chain, the vnode and uniquifier (32 bits each) and
 * a NUL-terminated name that continues into the following slots (a name of up to 15 bytes fits one slot). All
 * numbers are big-endian. Source: the layout in Debian's {@code /usr/include/afs/dir.h} (PageHeader, DirHeader,
 * DirEntry; AFS_PAGESIZE, NHASHENT, EPP, DHE), checked against directories fetched from an OpenAFS 1.8.9
 * fileserver (the test fixtures).
 *
 * <p>The entries are read by following the 128 hash chains, as the fileserver's own lookups do, so an entry that
 * is allocated but on no chain is not listed. Names are kept as their bytes, one {@code char} per byte
 * (ISO-8859-1), the form rx-afs's stubs send; {@link AfsNames} converts to and from UTF-8. Immutable.
 */
public final class AfsDirectory {
    /** Bytes per directory page. */
    public static final int PAGE_SIZE = 2048;
    /** Bytes per slot. */
    public static final int SLOT_SIZE = 32;
    /** Slots per page. */
    public static final int SLOTS_PER_PAGE = 64;
    /** Hash chains in the header. */
    public static final int HASH_SIZE = 128;
    /** The page header's tag, 1234 (dir.h PageHeader.tag). */
    public static final int PAGE_TAG = 1234;
    /** The most pages a directory may have (dir.h BIGMAXPAGES). */
    public static final int MAX_PAGES = 1023;
    /** Offset of the hash table in page 0, bytes: the 32-byte page header and the 128-byte allocation map. */
    private static final int HASH_OFFSET = 32 + 128;
    /** Slots of page 0 the header fills (the page header and dir.h's DHE = 12). */
    private static final int HEADER_SLOTS = 13;
    /** An entry's first slot has this flag bit (dir.h FFIRST). */
    private static final int FFIRST = 1;
    /** Offset of the name in an entry's first slot, bytes. */
    private static final int NAME_OFFSET = 12;

    /**
     * One directory entry.
     *
     * @param name the name, one char per byte (ISO-8859-1)
     * @param vnode the vnode number
     * @param unique the uniquifier
     * @param slot the entry's first slot number (page × 64 + slot in page)
     */
    public record Entry(String name, int vnode, int unique, int slot) {
    }

    private final List<Entry> entries;
    private final int[] chainHeads;
    private final byte[] data;
    private final int pages;

    private AfsDirectory(List<Entry> entries, int[] chainHeads, byte[] data, int pages) {
        this.entries = entries;
        this.chainHeads = chainHeads;
        this.data = data;
        this.pages = pages;
    }

    /**
     * Parses a directory's contents.
     *
     * @param data the directory vnode's bytes (a whole number of 2048-byte pages; a short last page is padded with
     *     zeros); not modified, and copied
     * @return the directory
     * @throws AfsFormatException if the data is not an AFS directory: empty, more than 1023 pages, a page 0 without
     *     the tag 1234, a chain that points outside the data, at a slot that does not start an entry or in a loop,
     *     or a name without its NUL within its page
     */
    public static AfsDirectory parse(byte[] data) throws AfsFormatException {
        if (data.length < PAGE_SIZE) {
            throw new AfsFormatException("directory of " + data.length + " bytes: shorter than one page (2048)");
        }
        int pages = (data.length + PAGE_SIZE - 1) / PAGE_SIZE;
        if (pages > MAX_PAGES) {
            throw new AfsFormatException("directory of " + pages + " pages: more than " + MAX_PAGES);
        }
        byte[] copy = java.util.Arrays.copyOf(data, pages * PAGE_SIZE);
        if (u16(copy, 2) != PAGE_TAG) {
            throw new AfsFormatException("page 0 has tag " + u16(copy, 2) + ", not " + PAGE_TAG);
        }
        int slots = pages * SLOTS_PER_PAGE;
        int[] heads = new int[HASH_SIZE];
        List<Entry> found = new ArrayList<>();
        BitSet seen = new BitSet(slots);
        for (int bucket = 0; bucket < HASH_SIZE; bucket++) {
            int n = u16(copy, HASH_OFFSET + 2 * bucket);
            heads[bucket] = n;
            while (n != 0) {
                Entry e = entryAt(copy, n, slots);
                if (seen.get(n)) {
                    throw new AfsFormatException("hash chain " + bucket + " loops at slot " + n);
                }
                seen.set(n);
                found.add(e);
                n = u16(copy, n * SLOT_SIZE + 2);
            }
        }
        return new AfsDirectory(Collections.unmodifiableList(found), heads, copy, pages);
    }

    private static Entry entryAt(byte[] d, int n, int slots) throws AfsFormatException {
        int inPage = n % SLOTS_PER_PAGE;
        if (n >= slots || (n < SLOTS_PER_PAGE && inPage < HEADER_SLOTS) || inPage == 0) {
            throw new AfsFormatException("hash chain points at slot " + n + ", which holds no entry ("
                    + slots + " slots)");
        }
        int at = n * SLOT_SIZE;
        if ((d[at] & FFIRST) == 0) {
            throw new AfsFormatException("slot " + n + " does not start an entry (flag " + (d[at] & 0xff) + ")");
        }
        int pageEnd = (n / SLOTS_PER_PAGE + 1) * PAGE_SIZE;
        int start = at + NAME_OFFSET;
        int end = start;
        while (end < pageEnd && d[end] != 0) {
            end++;
        }
        if (end == pageEnd) {
            throw new AfsFormatException("the name at slot " + n + " runs past its page");
        }
        if (end == start) {
            throw new AfsFormatException("the entry at slot " + n + " has an empty name");
        }
        return new Entry(new String(d, start, end - start, StandardCharsets.ISO_8859_1), s32(d, at + 4),
                s32(d, at + 8), n);
    }

    /**
     * The hash chain a name is on: each byte (as a signed C char) folded in as {@code h = h × 173 + b} in 32-bit
     * arithmetic, then the low 7 bits, mirrored ({@code 128 − bits}) when {@code h} is negative and the bits are not
     * 0. Source: OpenAFS's directory hash (DirHash), checked against the chains of the fixture directories.
     *
     * @param name the name, one char per byte
     * @return the chain, 0..127
     */
    public static int hash(String name) {
        int h = 0;
        for (int i = 0; i < name.length(); i++) {
            h = h * 173 + (byte) name.charAt(i);
        }
        int bits = h & (HASH_SIZE - 1);
        if (bits == 0 || h >= 0) {
            return bits;
        }
        return HASH_SIZE - bits;
    }

    /**
     * Looks a name up on its hash chain.
     *
     * @param name the name, one char per byte (ISO-8859-1)
     * @return the entry, or empty when the directory has no such name
     */
    public Optional<Entry> lookup(String name) {
        int n = chainHeads[hash(name)];
        int slots = pages * SLOTS_PER_PAGE;
        for (int steps = 0; n != 0 && steps < slots; steps++) {
            Entry e;
            try {
                e = entryAt(data, n, slots);
            } catch (AfsFormatException malformed) {
                return Optional.empty(); // parse() walked every chain, so this cannot happen
            }
            if (e.name().equals(name)) {
                return Optional.of(e);
            }
            n = u16(data, n * SLOT_SIZE + 2);
        }
        return Optional.empty();
    }

    /** @return every entry, chain by chain (bucket 0 first), "." and ".." included; unmodifiable */
    public List<Entry> entries() {
        return entries;
    }

    /** @return the number of 2048-byte pages */
    public int pages() {
        return pages;
    }

    private static int u16(byte[] d, int at) {
        return ((d[at] & 0xff) << 8) | (d[at + 1] & 0xff);
    }

    private static int s32(byte[] d, int at) {
        return ((d[at] & 0xff) << 24) | ((d[at + 1] & 0xff) << 16) | ((d[at + 2] & 0xff) << 8) | (d[at + 3] & 0xff);
    }
}
