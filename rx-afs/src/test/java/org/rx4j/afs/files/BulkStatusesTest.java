// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.afs.files;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.lang.reflect.Proxy;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.rx4j.afs.fs.AFSCallBack;
import org.rx4j.afs.fs.AFSFetchStatus;
import org.rx4j.afs.fs.AFSFid;
import org.rx4j.afs.fs.AFSVolSync;
import org.rx4j.afs.fs.RxafsBulkStatusResult;
import org.rx4j.afs.fs.RxafsClient;
import org.rx4j.afs.fs.RxafsDispatcher;
import org.rx4j.afs.fs.RxafsFetchStatusResult;
import org.rx4j.afs.fs.RxafsInlineBulkStatusResult;
import org.rx4j.afs.fs.RxafsServer;
import org.rx4j.rpc.RxEndpoint;
import org.rx4j.rpc.errors.RxCodes;
import org.rx4j.rpc.errors.RxException;
import org.rx4j.security.RxNullSecurityClass;

/**
 * {@link BulkStatuses} and the callbacks given up at close ({@link FileServers#giveUpCallBacks}) against fake
 * fileservers on loopback that know some RXAFS procedures and answer RXGEN_OPCODE (−455) for the others, as an
 * older fileserver does: InlineBulkStatus first, BulkStatus when it is refused, FetchStatus one fid at a time when
 * both are; each fid's own error (VNOVNODE) comes back in its answer; GiveUpCallBacks, 50 fids a call, where
 * GiveUpAllCallBacks is refused. Each fake records the procedures it was asked for.
 */
@Timeout(60)
class BulkStatusesTest {
    private static final int VOLUME = 536_870_915;
    /** The vnode the fakes do not have (VNOVNODE). */
    private static final int GONE = 99;
    private static final AFSCallBack CALLBACK = new AFSCallBack(1, 60, 1);
    private static final AFSVolSync SYNC = new AFSVolSync(0, 0, 0, 0, 0, 0);

    private final List<String> asked = new CopyOnWriteArrayList<>();
    private final List<List<AFSFid>> givenUp = new CopyOnWriteArrayList<>();
    private final List<AutoCloseable> open = new ArrayList<>();

    @AfterEach
    void close() throws Exception {
        for (int i = open.size() - 1; i >= 0; i--) {
            open.get(i).close();
        }
    }

    private static AFSFetchStatus status(AFSFid f, int error) {
        return new AFSFetchStatus(1, error == 0 ? 1 : 0, 1, error == 0 ? f.vnode() : 0, 1, 0, 0, 0x7f, 0x7f, 0644, 1,
                1, 0, 0, 0, 0, 0, 0, 0, 0, error);
    }

    /** @return a client of a fake fileserver that knows only {@code knows} (besides FetchStatus) */
    private RxafsClient fake(Set<String> knows) throws Exception {
        RxafsServer impl = (RxafsServer) Proxy.newProxyInstance(RxafsServer.class.getClassLoader(),
                new Class<?>[] {RxafsServer.class}, (p, m, a) -> {
                    String name = m.getName();
                    asked.add(name);
                    if (!name.equals("fetchStatus") && !knows.contains(name)) {
                        throw RxException.local(RxCodes.RXGEN_OPCODE, "no such procedure");
                    }
                    switch (name) {
                        case "fetchStatus": {
                            AFSFid f = (AFSFid) a[1];
                            if (f.vnode() == GONE) {
                                throw RxException.local(AfsErrors.VNOVNODE, "no vnode");
                            }
                            return new RxafsFetchStatusResult(status(f, 0), CALLBACK, SYNC);
                        }
                        case "inlineBulkStatus": {
                            @SuppressWarnings("unchecked")
                            List<AFSFid> fids = (List<AFSFid>) a[1];
                            List<AFSFetchStatus> st = new ArrayList<>();
                            List<AFSCallBack> cbs = new ArrayList<>();
                            for (AFSFid f : fids) {
                                boolean gone = f.vnode() == GONE;
                                st.add(status(f, gone ? AfsErrors.VNOVNODE : 0));
                                cbs.add(gone ? new AFSCallBack(0, 0, 0) : CALLBACK);
                            }
                            return new RxafsInlineBulkStatusResult(st, cbs, SYNC);
                        }
                        case "bulkStatus": {
                            @SuppressWarnings("unchecked")
                            List<AFSFid> fids = (List<AFSFid>) a[1];
                            List<AFSFetchStatus> st = new ArrayList<>();
                            for (AFSFid f : fids) {
                                if (f.vnode() == GONE) {
                                    throw RxException.local(AfsErrors.VNOVNODE, "no vnode");
                                }
                                st.add(status(f, 0));
                            }
                            return new RxafsBulkStatusResult(st, java.util.Collections.nCopies(st.size(), CALLBACK),
                                    SYNC);
                        }
                        case "giveUpCallBacks": {
                            @SuppressWarnings("unchecked")
                            List<AFSFid> fids = (List<AFSFid>) a[1];
                            givenUp.add(List.copyOf(fids));
                            return null;
                        }
                        case "giveUpAllCallBacks":
                            return null;
                        default:
                            throw new UnsupportedOperationException(name);
                    }
                });
        RxEndpoint server = RxEndpoint.builder().bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))
                .service(RxafsDispatcher.service(1, RxNullSecurityClass.INSTANCE, impl)).open();
        open.add(server);
        RxEndpoint client = RxEndpoint.builder().bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))
                .open();
        open.add(client);
        RxafsClient c = RxafsClient.connect(client, server.localAddress(), 1, RxNullSecurityClass.INSTANCE);
        open.add(c);
        return c;
    }

    private static List<AFSFid> fids(int... vnodes) {
        List<AFSFid> out = new ArrayList<>();
        for (int v : vnodes) {
            out.add(new AFSFid(VOLUME, v, 1));
        }
        return out;
    }

    private static void assertAnswers(List<BulkStatuses.Answer> answers) {
        assertEquals(3, answers.size());
        assertEquals(2, answers.get(0).status().length());
        assertEquals(CALLBACK, answers.get(0).callBack());
        assertEquals(AfsErrors.VNOVNODE, answers.get(1).error(), "the vanished fid's own error");
        assertNull(answers.get(1).status());
        assertEquals(0, answers.get(2).error());
        assertEquals(4, answers.get(2).status().length());
    }

    @Test
    void inlineBulkStatusAnswersAllInOneCall() throws Exception {
        RxafsClient fs = fake(Set.of("inlineBulkStatus", "bulkStatus"));
        BulkStatuses bulk = new BulkStatuses();
        assertAnswers(bulk.fetch(fs, fids(2, GONE, 4), Duration.ofSeconds(10)));
        assertEquals(List.of("inlineBulkStatus"), asked);
        assertEquals(BulkStatuses.Level.INLINE, bulk.level());
    }

    @Test
    void bulkStatusWhenInlineIsRefusedThenEachFidWhenOneFails() throws Exception {
        RxafsClient fs = fake(Set.of("bulkStatus"));
        BulkStatuses bulk = new BulkStatuses();
        assertAnswers(bulk.fetch(fs, fids(2, GONE, 4), Duration.ofSeconds(10)));
        assertEquals(List.of("inlineBulkStatus", "bulkStatus", "fetchStatus", "fetchStatus", "fetchStatus"), asked);
        assertEquals(BulkStatuses.Level.BULK, bulk.level(), "BulkStatus is still known, only this batch failed");
        asked.clear();
        assertEquals(2, bulk.fetch(fs, fids(5, 6), Duration.ofSeconds(10)).size());
        assertEquals(List.of("bulkStatus"), asked, "InlineBulkStatus is not asked again");
    }

    @Test
    void fetchStatusEachWhenNeitherBulkCallIsKnown() throws Exception {
        RxafsClient fs = fake(Set.of());
        BulkStatuses bulk = new BulkStatuses();
        assertAnswers(bulk.fetch(fs, fids(2, GONE, 4), Duration.ofSeconds(10)));
        assertEquals(BulkStatuses.Level.SINGLE, bulk.level());
        asked.clear();
        bulk.fetch(fs, fids(5), Duration.ofSeconds(10));
        assertEquals(List.of("fetchStatus"), asked);
    }

    @Test
    void moreThanFiftyFidsIsTheCallersMistake() throws Exception {
        RxafsClient fs = fake(Set.of("inlineBulkStatus"));
        int[] many = new int[51];
        java.util.Arrays.setAll(many, i -> i + 1);
        assertThrows(IllegalArgumentException.class,
                () -> new BulkStatuses().fetch(fs, fids(many), Duration.ofSeconds(10)));
    }

    @Test
    void closeGivesUpEachCallBackWhereGiveUpAllIsRefused() throws Exception {
        RxafsClient fs = fake(Set.of("giveUpCallBacks"));
        RxEndpoint client = (RxEndpoint) open.get(1);
        RxEndpoint server = (RxEndpoint) open.get(0);
        FileServers servers = new FileServers(client, RxNullSecurityClass.INSTANCE, null);
        open.add(servers);
        servers.client(server.localAddress());
        int[] vnodes = new int[120];
        java.util.Arrays.setAll(vnodes, i -> i + 1);
        servers.giveUpCallBacks(fids(vnodes), Duration.ofSeconds(10));
        assertEquals(List.of("giveUpAllCallBacks", "giveUpCallBacks", "giveUpCallBacks", "giveUpCallBacks"), asked);
        assertEquals(List.of(50, 50, 20), givenUp.stream().map(List::size).toList(), "50 fids a call");
        assertEquals(fids(vnodes), givenUp.stream().flatMap(List::stream).toList());
        fs.close();
    }

    @Test
    void closeAsksNothingMoreWhereGiveUpAllIsKnown() throws Exception {
        fake(Set.of("giveUpAllCallBacks", "giveUpCallBacks"));
        RxEndpoint client = (RxEndpoint) open.get(1);
        RxEndpoint server = (RxEndpoint) open.get(0);
        FileServers servers = new FileServers(client, RxNullSecurityClass.INSTANCE, null);
        open.add(servers);
        servers.client(server.localAddress());
        servers.giveUpCallBacks(fids(1, 2, 3), Duration.ofSeconds(10));
        assertEquals(List.of("giveUpAllCallBacks"), asked);
    }
}
