// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.afs.files;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.io.OutputStream;
import java.lang.reflect.Proxy;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.rx4j.afs.fs.AFSCallBack;
import org.rx4j.afs.fs.AFSFetchStatus;
import org.rx4j.afs.fs.AFSFid;
import org.rx4j.afs.fs.AFSVolSync;
import org.rx4j.afs.fs.RxafsDispatcher;
import org.rx4j.afs.fs.RxafsFetchData64Result;
import org.rx4j.afs.fs.RxafsFetchStatusResult;
import org.rx4j.afs.fs.RxafsServer;
import org.rx4j.afs.vl.Nvldbentry;
import org.rx4j.afs.vl.VlConstants;
import org.rx4j.afs.vl.VlDispatcher;
import org.rx4j.afs.vl.VlErrors;
import org.rx4j.afs.vl.VlServer;
import org.rx4j.config.RxConfig;
import org.rx4j.rpc.RxCall;
import org.rx4j.rpc.RxEndpoint;
import org.rx4j.rpc.errors.RxException;
import org.rx4j.security.RxNullSecurityClass;

/**
 * {@link AfsFileSystem} against fake servers on loopback: a vlserver whose root.cell has a read-only clone on two
 * sites, the first of which (127.0.0.2) answers every call with VOFFLINE and the second (127.0.0.3) serves the
 * fixture directory {@code small.dir} (entry {@code fixture} = vnode 3.2) and a 5-byte file. Paths resolve through
 * the read-only clone, the replicas are tried in turn, FetchData64's length header and ranges are read, and the
 * fileserver's codes come back named.
 */
@Timeout(60)
class AfsFileSystemLoopbackTest {
    private static final int RW = 536_870_915;
    private static final int RO = 536_870_916;
    private static final byte[] HELLO = "hello".getBytes(StandardCharsets.US_ASCII);
    private static final AtomicInteger offlineCalls = new AtomicInteger();
    private static final AtomicInteger servedCalls = new AtomicInteger();
    private static byte[] directory;
    private static RxEndpoint vlEndpoint;
    private static RxEndpoint offline;
    private static RxEndpoint serving;
    private static AfsFileSystem afs;

    private static int ipv4(String dotted) throws Exception {
        byte[] b = InetAddress.getByName(dotted).getAddress();
        return ((b[0] & 0xff) << 24) | ((b[1] & 0xff) << 16) | ((b[2] & 0xff) << 8) | (b[3] & 0xff);
    }

    private static AFSFetchStatus status(int type, int length) {
        return new AFSFetchStatus(1, type, 1, length, 1, 0, 0, 0x7f, 0x7f, 0644, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    }

    private static final AFSCallBack CALLBACK = new AFSCallBack(1, 60, 1);
    private static final AFSVolSync SYNC = new AFSVolSync(0, 0, 0, 0, 0, 0);

    private static AFSFetchStatus statusOf(AFSFid f) throws RxException {
        if (f.volume() != RO) {
            throw RxException.local(AfsErrors.VNOVOL, "not here");
        }
        if (f.vnode() == 1 && f.unique() == 1) {
            return status(2, directory.length);
        }
        if (f.vnode() == 3 && f.unique() == 2) {
            return status(1, HELLO.length);
        }
        throw RxException.local(AfsErrors.VNOVNODE, "no vnode");
    }

    @BeforeAll
    static void start() throws Exception {
        try (InputStream in = AfsFileSystemLoopbackTest.class.getResourceAsStream("small.dir")) {
            directory = in.readAllBytes();
        }
        RxafsServer down = (RxafsServer) Proxy.newProxyInstance(RxafsServer.class.getClassLoader(),
                new Class<?>[] {RxafsServer.class}, (p, m, a) -> {
                    offlineCalls.incrementAndGet();
                    throw RxException.local(AfsErrors.VOFFLINE, "off line");
                });
        RxafsServer up = (RxafsServer) Proxy.newProxyInstance(RxafsServer.class.getClassLoader(),
                new Class<?>[] {RxafsServer.class}, (p, m, a) -> {
                    servedCalls.incrementAndGet();
                    AFSFid f = (AFSFid) a[1];
                    switch (m.getName()) {
                        case "fetchStatus":
                            return new RxafsFetchStatusResult(statusOf(f), CALLBACK, SYNC);
                        case "fetchData64": {
                            AFSFetchStatus s = statusOf(f);
                            byte[] all = s.fileType() == 2 ? directory : HELLO;
                            int from = (int) Math.min((long) a[2], all.length);
                            int to = (int) Math.min(from + (long) a[3], all.length);
                            OutputStream out = ((RxCall) a[0]).output();
                            long n = to - from;
                            for (int shift = 56; shift >= 0; shift -= 8) {
                                out.write((int) (n >>> shift));
                            }
                            out.write(Arrays.copyOfRange(all, from, to));
                            return new RxafsFetchData64Result(s, CALLBACK, SYNC);
                        }
                        default:
                            throw new UnsupportedOperationException(m.getName());
                    }
                });
        offline = RxEndpoint.builder().bind(new InetSocketAddress(InetAddress.getByName("127.0.0.2"), 0))
                .service(RxafsDispatcher.service(1, RxNullSecurityClass.INSTANCE, down)).open();
        int port = offline.localAddress().getPort();
        serving = RxEndpoint.builder().bind(new InetSocketAddress(InetAddress.getByName("127.0.0.3"), port))
                .service(RxafsDispatcher.service(1, RxNullSecurityClass.INSTANCE, up)).open();

        List<Integer> servers = new ArrayList<>(Collections.nCopies(VlConstants.NMAXNSERVERS, 0));
        List<Integer> flags = new ArrayList<>(Collections.nCopies(VlConstants.NMAXNSERVERS, 0));
        servers.set(0, ipv4("127.0.0.4"));
        flags.set(0, VlConstants.VLSF_RWVOL);
        servers.set(1, ipv4("127.0.0.2"));
        flags.set(1, VlConstants.VLSF_ROVOL);
        servers.set(2, ipv4("127.0.0.3"));
        flags.set(2, VlConstants.VLSF_ROVOL);
        Nvldbentry rootCell = new Nvldbentry("root.cell", 3, servers, Collections.nCopies(VlConstants.NMAXNSERVERS, 0),
                flags, List.of(RW, RO, 0), 0, VlConstants.VLF_RWEXISTS | VlConstants.VLF_ROEXISTS, 0, 0, 0, 0, 0, 0, 0,
                0, 0);
        VlServer vl = (VlServer) Proxy.newProxyInstance(VlServer.class.getClassLoader(),
                new Class<?>[] {VlServer.class}, (p, m, a) -> {
                    if (m.getName().equals("getEntryByNameN") && a[1].equals("root.cell")) {
                        return rootCell;
                    }
                    if (m.getName().equals("getEntryByIDN") && ((int) a[1] == RW || (int) a[1] == RO)) {
                        return rootCell;
                    }
                    throw RxException.local(VlErrors.VL_NOENT, "no entry");
                });
        vlEndpoint = RxEndpoint.builder().bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))
                .service(VlDispatcher.service(52, RxNullSecurityClass.INSTANCE, vl)).open();
        afs = AfsFileSystem.open("test.example", List.of(vlEndpoint.localAddress()), RxNullSecurityClass.INSTANCE,
                Duration.ofSeconds(10), Duration.ofSeconds(10), RxConfig.defaults(), port);
    }

    @AfterAll
    static void stop() {
        for (AutoCloseable c : new AutoCloseable[] {afs, vlEndpoint, offline, serving}) {
            try {
                if (c != null) {
                    c.close();
                }
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        }
    }

    @Test
    void readsThroughTheReadOnlyCloneTryingTheReplicasInTurn() throws Exception {
        assertArrayEquals(HELLO, afs.readAllBytes("/afs/test.example/fixture"));
        assertTrue(offlineCalls.get() > 0, "the first replica was asked");
        assertTrue(servedCalls.get() > 0, "the second replica answered");
        AfsStat st = afs.stat("/afs/test.example/fixture");
        assertEquals(new AFSFid(RO, 3, 2), st.fid());
        assertEquals(AfsStat.Type.FILE, st.type());
        assertEquals(5, st.length());
        assertEquals(List.of(new AfsFileSystem.Entry("fixture", new AFSFid(RO, 3, 2))),
                afs.list("/afs/test.example"));
    }

    @Test
    void readsRanges() throws Exception {
        try (InputStream in = afs.read("/afs/test.example/fixture", 1, 3)) {
            assertArrayEquals("ell".getBytes(StandardCharsets.US_ASCII), in.readAllBytes());
        }
        try (InputStream in = afs.read("/afs/test.example/fixture", 4, 100)) {
            assertArrayEquals("o".getBytes(StandardCharsets.US_ASCII), in.readAllBytes());
        }
    }

    @Test
    void namesTheErrors() {
        AfsFileException missing = assertThrows(AfsFileException.class, () -> afs.stat("/afs/test.example/nothing"));
        assertEquals("ENOENT", missing.codeName());
        AfsFileException vnode = assertThrows(AfsFileException.class, () -> afs.stat(new AFSFid(RO, 9, 9)));
        assertEquals("VNOVNODE", vnode.codeName());
        assertTrue(vnode.getMessage().contains("VNOVNODE (102)"), vnode.getMessage());
        AfsFileException dir = assertThrows(AfsFileException.class, () -> afs.read("/afs/test.example/"));
        assertTrue(dir.getMessage().contains("EISDIR"), dir.getMessage());
        AfsFileException cell = assertThrows(AfsFileException.class, () -> afs.stat("/afs/other.example/x"));
        assertTrue(cell.getMessage().contains("other.example"), cell.getMessage());
    }
}
