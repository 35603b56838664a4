// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.afs.files;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.rx4j.afs.fs.AFSFid;
import org.rx4j.afs.fs.RxafsClient;
import org.rx4j.rpc.errors.RxException;
import org.rx4j.security.RxNullSecurityClass;
import org.rx4j.security.rxkad.LocalAuth;
import org.rx4j.security.rxkad.RxkadClientSecurity;
import org.rx4j.security.rxkad.RxkadCredentials;
import org.rx4j.security.rxkad.RxkadLevel;

/**
 * {@link AfsFileSystem} against a real OpenAFS 1.8.9 cell (bosserver, ptserver, vlserver, fileserver, volserver,
 * salvager) made by {@code scripts/interop/afs-cell.sh start}, checked with OpenAFS's own clients: Debian's
 * {@code afsio} (fidread, fidwrite, write) and {@code scripts/interop/afscp-ls} (libafscp's directory listing).
 * Skipped unless {@code -Drx4j.afs.cell=FILE} names the cell's state file; the JVM must run inside the cell's
 * namespaces ({@code afs-cell.sh run mvn ...}), as {@code scripts/interop.sh files} does, with
 * {@code -Drx4j.afs.afscpls=PATH} naming the built afscp-ls.
 */
@Timeout(300)
class AfsFilesInteropTest {
    private static Properties cell;
    private static AfsFileSystem afs;
    private static String root;
    private static String afscpLs;

    @BeforeAll
    static void open() throws IOException {
        String file = System.getProperty("rx4j.afs.cell", "");
        assumeTrue(!file.isBlank(), "no test cell given (-Drx4j.afs.cell=/tmp/rx4j-afscell/cell.env)");
        cell = new Properties();
        try (InputStream in = new FileInputStream(file)) {
            cell.load(in);
        }
        afscpLs = System.getProperty("rx4j.afs.afscpls", "");
        afs = AfsFileSystem.open(cell(), List.of(new InetSocketAddress(cell.getProperty("AFSCELL_ADDR"), 7003)),
                RxNullSecurityClass.INSTANCE);
        root = "/afs/" + cell() + "/junit-" + Long.toHexString(new SecureRandom().nextLong());
        afs.mkdir(root);
    }

    @AfterAll
    static void close() {
        if (afs != null) {
            afs.close();
        }
    }

    private static String cell() {
        return cell.getProperty("AFSCELL_CELL");
    }

    /** Runs a program, feeding it {@code input}; returns its stdout; fails on a non-zero exit or stderr text. */
    private static byte[] run(byte[] input, String... command) throws Exception {
        Process p = new ProcessBuilder(command).start();
        Future<byte[]> err = Executors.newSingleThreadExecutor().submit(() -> p.getErrorStream().readAllBytes());
        try (OutputStream in = p.getOutputStream()) {
            in.write(input);
        }
        byte[] out = p.getInputStream().readAllBytes();
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), String.join(" ", command) + " did not end");
        String errText = new String(err.get(), StandardCharsets.UTF_8);
        assertEquals(0, p.exitValue(), String.join(" ", command) + ": " + errText);
        // afsio exits 0 on errors: its stderr says so
        assertTrue(errText.isBlank(), String.join(" ", command) + " said: " + errText);
        return out;
    }

    private static byte[] afsioFidread(AFSFid fid) throws Exception {
        return run(new byte[0], "afsio", "fidread", "-fid", Fids.format(fid), "-cell", cell());
    }

    private static byte[] random(int n, long seed) {
        byte[] b = new byte[n];
        new Random(seed).nextBytes(b);
        return b;
    }

    @Test
    void whatRx4jWritesAfsioReadsByteForByte() throws Exception {
        for (int n : new int[] {0, 1, 1412, 1413, 65536, 3 * 1024 * 1024 + 17}) {
            byte[] data = random(n, n);
            AfsStat st = afs.write(root + "/w" + n, data, AfsFileSystem.WriteMode.TRUNCATE);
            assertEquals(n, st.length());
            assertArrayEquals(data, afsioFidread(st.fid()), "size " + n);
        }
    }

    @Test
    void whatAfsioWritesRx4jReadsByteForByte() throws Exception {
        byte[] data = random(2 * 1024 * 1024 + 5, 7);
        AfsStat made = afs.write(root + "/by-afsio", new byte[0], AfsFileSystem.WriteMode.CREATE_NEW);
        run(data, "afsio", "fidwrite", "-vnode", Fids.format(made.fid()), "-force", "-cell", cell());
        assertArrayEquals(data, afs.readAllBytes(root + "/by-afsio"));
        // a name afsio made (afsio write -file /NAME creates in root.cell's root)
        String name = "afsio-" + Long.toHexString(new SecureRandom().nextLong());
        run("made by afsio\n".getBytes(StandardCharsets.US_ASCII), "afsio", "write", "-file", "/" + name, "-cell",
                cell());
        assertEquals("made by afsio\n",
                new String(afs.readAllBytes("/afs/" + cell() + "/" + name), StandardCharsets.US_ASCII));
        afs.remove("/afs/" + cell() + "/" + name);
    }

    @Test
    void rangesTruncateAndAppend() throws Exception {
        byte[] data = random(100_000, 3);
        String p = root + "/ranges";
        afs.write(p, data, AfsFileSystem.WriteMode.TRUNCATE);
        try (InputStream in = afs.read(p, 12_345, 1000)) {
            assertArrayEquals(Arrays.copyOfRange(data, 12_345, 13_345), in.readAllBytes());
        }
        try (InputStream in = afs.read(p, 99_990, 1000)) {
            assertArrayEquals(Arrays.copyOfRange(data, 99_990, 100_000), in.readAllBytes());
        }
        byte[] small = random(10, 4);
        AfsStat st = afs.write(p, small, AfsFileSystem.WriteMode.TRUNCATE);
        assertEquals(10, st.length());
        assertArrayEquals(small, afsioFidread(st.fid()));
        st = afs.write(p, data, AfsFileSystem.WriteMode.APPEND);
        byte[] both = new byte[10 + data.length];
        System.arraycopy(small, 0, both, 0, 10);
        System.arraycopy(data, 0, both, 10, data.length);
        assertArrayEquals(both, afsioFidread(st.fid()));
        AfsFileException e = assertThrows(AfsFileException.class,
                () -> afs.write(p, small, AfsFileSystem.WriteMode.CREATE_NEW));
        assertEquals("EEXIST", e.codeName());
    }

    @Test
    void namespaceChangesAndNamedErrors() throws Exception {
        String d = root + "/dir";
        afs.mkdir(d);
        afs.write(d + "/a", new byte[] {1}, AfsFileSystem.WriteMode.CREATE_NEW);
        afs.rename(d + "/a", d + "/b");
        assertEquals(List.of("b"), afs.list(d).stream().map(AfsFileSystem.Entry::name).toList());
        AFSFid b = afs.stat(d + "/b").fid();
        assertEquals("EEXIST", assertThrows(AfsFileException.class, () -> afs.mkdir(d)).codeName());
        assertEquals("ENOENT", assertThrows(AfsFileException.class, () -> afs.stat(d + "/a")).codeName());
        afs.remove(d + "/b");
        afs.remove(d);
        assertEquals("ENOENT", assertThrows(AfsFileException.class, () -> afs.list(d)).codeName());
        // the removed file's fid: the fileserver says VNOVNODE
        afs.cache().invalidate(b);
        assertEquals("VNOVNODE", assertThrows(AfsFileException.class, () -> afs.stat(b)).codeName());
        // a volume the fileserver does not have (asked directly: the VLDB would not send us there)
        RxafsClient fs = afs.fileServer(new InetSocketAddress(cell.getProperty("AFSCELL_ADDR"), 7000));
        RxException noVol = assertThrows(RxException.class, () -> fs.fetchStatus(new AFSFid(12345, 1, 1)));
        assertEquals(AfsErrors.VNOVOL, noVol.code());
        assertEquals("VNOVOL", AfsErrors.name(noVol.code()));
    }

    @Test
    void afsioFidwriteBreaksTheCallbackWithinOneSecond() throws Exception {
        AfsStat before = afs.write(root + "/watched", random(100, 1), AfsFileSystem.WriteMode.TRUNCATE);
        AfsStat held = afs.stat(root + "/watched");
        assertTrue(afs.cache().holds(held.fid()), "the status is held under a callback");
        long breaks = afs.cache().breaks();
        run(random(50, 2), "afsio", "fidwrite", "-vnode", Fids.format(held.fid()), "-force", "-cell", cell());
        long deadline = System.nanoTime() + 1_000_000_000L;
        while (afs.cache().holds(held.fid()) && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        assertFalse(afs.cache().holds(held.fid()), "the callback was not broken within 1 s");
        assertTrue(afs.cache().breaks() > breaks);
        assertTrue(afs.stat(root + "/watched").dataVersion() > before.dataVersion());
    }

    @Test
    void tenThousandEntriesListAsLibafscpListsThem() throws Exception {
        assumeTrue(!afscpLs.isBlank(), "no -Drx4j.afs.afscpls=PATH");
        String big = root + "/big";
        afs.mkdir(big);
        ExecutorService pool = Executors.newFixedThreadPool(8);
        List<Future<AfsStat>> made = new ArrayList<>();
        for (int i = 0; i < 10_000; i++) {
            String name = big + "/entry-" + i + (i % 10 == 0 ? "-with-a-longer-name-spanning-slots" : "");
            made.add(pool.submit(() -> afs.write(name, new byte[0], AfsFileSystem.WriteMode.CREATE_NEW)));
        }
        for (Future<AfsStat> f : made) {
            f.get();
        }
        pool.shutdown();
        List<AfsFileSystem.Entry> mine = afs.list(big);
        assertEquals(10_000, mine.size());
        AFSFid dir = afs.stat(big).fid();
        List<String> theirs = new String(run(new byte[0], afscpLs, cell(), Integer.toUnsignedString(dir.volume()),
                Integer.toUnsignedString(dir.vnode()), Integer.toUnsignedString(dir.unique())),
                StandardCharsets.UTF_8).lines().filter(l -> !l.endsWith(" .") && !l.endsWith(" ..")).toList();
        List<String> ours = mine.stream()
                .map(e -> Integer.toUnsignedString(e.fid().vnode()) + "." + Integer.toUnsignedString(e.fid().unique())
                        + " " + e.name()).toList();
        assertEquals(theirs, ours);
        // ls -l: every status, 50 a call with InlineBulkStatus, each equal to what FetchStatus says
        afs.cache().clear();
        List<AfsFileSystem.StatEntry> stats = afs.listWithStatus(big);
        assertEquals(BulkStatuses.Level.INLINE, afs.bulkLevel(), "this fileserver knows InlineBulkStatus");
        assertEquals(mine.stream().map(AfsFileSystem.Entry::fid).toList(),
                stats.stream().map(AfsFileSystem.StatEntry::fid).toList());
        for (AfsFileSystem.StatEntry e : stats) {
            assertEquals(0, e.errorCode(), e.name());
            assertEquals(AfsStat.Type.FILE, e.stat().type(), e.name());
            assertEquals(0, e.stat().length(), e.name());
            assertTrue(afs.cache().holds(e.fid()), "kept under its callback: " + e.name());
        }
        try (AfsFileSystem other = AfsFileSystem.open(cell(),
                List.of(new InetSocketAddress(cell.getProperty("AFSCELL_ADDR"), 7003)), RxNullSecurityClass.INSTANCE)) {
            for (int i = 0; i < stats.size(); i += 997) {
                assertEquals(other.stat(stats.get(i).fid()), stats.get(i).stat(), stats.get(i).name());
            }
        }
    }

    @Test
    void symbolicAndHardLinks() throws Exception {
        String d = root + "/links";
        afs.mkdir(d);
        afs.mkdir(d + "/sub");
        byte[] data = random(5000, 11);
        AfsStat file = afs.write(d + "/sub/file", data, AfsFileSystem.WriteMode.CREATE_NEW);
        AfsStat rel = afs.symlink(d + "/rel", "sub/file");
        assertEquals(AfsStat.Type.SYMLINK, rel.type());
        assertFalse(rel.isMountPointCandidate(), "mode 0755: a symbolic link, not a mount point");
        assertEquals("sub/file", afs.readLink(d + "/rel"));
        afs.symlink(d + "/abs", d + "/sub");
        assertArrayEquals(data, afs.readAllBytes(d + "/rel"), "relative to the link's directory");
        assertArrayEquals(data, afs.readAllBytes(d + "/abs/file"), "an absolute link inside the path");
        assertEquals(file.fid(), afs.stat(d + "/abs/file").fid());
        assertEquals(rel.fid(), afs.stat(d + "/rel").fid(), "stat does not follow the last link");
        // what afsio reads from the link's fid is the link's contents
        assertEquals("sub/file", new String(afsioFidread(rel.fid()), StandardCharsets.UTF_8));
        AfsStat hard = afs.link(d + "/sub/file", d + "/sub/again");
        assertEquals(file.fid(), hard.fid());
        assertEquals(2, afs.stat(d + "/sub/again").linkCount());
        assertArrayEquals(data, afsioFidread(afs.stat(d + "/sub/again").fid()));
        assertEquals("EXDEV", assertThrows(AfsFileException.class,
                () -> afs.link(d + "/sub/file", d + "/elsewhere")).codeName(), "AFS links within one directory");
        assertEquals("EEXIST", assertThrows(AfsFileException.class,
                () -> afs.symlink(d + "/rel", "x")).codeName());
        afs.symlink(d + "/loop1", "loop2");
        afs.symlink(d + "/loop2", "loop1");
        AfsFileException loop = assertThrows(AfsFileException.class, () -> afs.readAllBytes(d + "/loop1"));
        assertTrue(loop.getMessage().contains("ELOOP"), loop.getMessage());
        assertEquals("EINVAL", assertThrows(AfsFileException.class, () -> afs.readLink(d + "/sub")).codeName());
    }

    @Test
    void rxkadCryptWithTheCellsKey() throws Exception {
        RxkadCredentials c = LocalAuth.fromDirectory(Path.of(cell.getProperty("AFSCELL_CONF"), "server"),
                new SecureRandom());
        try (AfsFileSystem crypt = AfsFileSystem.open(cell(),
                List.of(new InetSocketAddress(cell.getProperty("AFSCELL_ADDR"), 7003)),
                new RxkadClientSecurity(RxkadLevel.CRYPT, c.sessionKey(), c.kvno(), c.ticket()))) {
            byte[] data = random(300_000, 9);
            AfsStat st = crypt.write(root + "/crypt", data, AfsFileSystem.WriteMode.TRUNCATE);
            assertArrayEquals(data, crypt.readAllBytes(root + "/crypt"));
            assertArrayEquals(data, afsioFidread(st.fid()));
        }
    }
}
