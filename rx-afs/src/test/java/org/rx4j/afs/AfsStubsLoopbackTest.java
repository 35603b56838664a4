// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.afs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Proxy;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.rx4j.afs.bozo.BozoClient;
import org.rx4j.afs.bozo.BozoDispatcher;
import org.rx4j.afs.bozo.BozoOpcodes;
import org.rx4j.afs.bozo.BozoServer;
import org.rx4j.afs.bozo.BzErrors;
import org.rx4j.afs.pt.PrClient;
import org.rx4j.afs.pt.PrDispatcher;
import org.rx4j.afs.pt.PrOpcodes;
import org.rx4j.afs.pt.PrServer;
import org.rx4j.afs.pt.Prcheckentry;
import org.rx4j.afs.pt.PtErrors;
import org.rx4j.afs.vl.Nvldbentry;
import org.rx4j.afs.vl.VlClient;
import org.rx4j.afs.vl.VlConstants;
import org.rx4j.afs.vl.VlDispatcher;
import org.rx4j.afs.vl.VlErrors;
import org.rx4j.afs.vl.VlOpcodes;
import org.rx4j.afs.vl.VlServer;
import org.rx4j.rpc.RxEndpoint;
import org.rx4j.rpc.errors.RxException;
import org.rx4j.security.RxNullSecurityClass;

/**
 * The stubs generated from rx4j's bozo.xg, vl.xg and pt.xg and their error tables: a client and a fake server of
 * each service over 127.0.0.1, on the service ids AFS uses (BOZO 1, VL 52, PR 73). The fakes implement only the
 * procs called (a proxy: the others abort with RX_INVALID_OPERATION).
 */
class AfsStubsLoopbackTest {
    private static RxEndpoint server;
    private static RxEndpoint client;

    private static <T> T fake(Class<T> type, InvocationHandler h) {
        return type.cast(Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, h));
    }

    static Nvldbentry rootCell() {
        List<Integer> servers = new java.util.ArrayList<>(Collections.nCopies(VlConstants.NMAXNSERVERS, 0));
        servers.set(0, 0x7f000001);
        return new Nvldbentry("root.cell", 1, servers, Collections.nCopies(VlConstants.NMAXNSERVERS, 0),
                Collections.nCopies(VlConstants.NMAXNSERVERS, VlConstants.VLSF_RWVOL),
                List.of(536870915, 536870916, 536870917), 0, VlConstants.VLF_RWEXISTS, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    }

    @BeforeAll
    static void start() throws Exception {
        VlServer vl = fake(VlServer.class, (p, m, a) -> switch (m.getName()) {
            case "probeServer" -> null;
            case "getEntryByNameN" -> {
                if (a[1].equals("root.cell")) {
                    yield rootCell();
                }
                throw RxException.local(VlErrors.VL_NOENT, "no " + a[1]);
            }
            default -> throw new UnsupportedOperationException(m.getName());
        });
        BozoServer bozo = fake(BozoServer.class, (p, m, a) -> switch (m.getName()) {
            case "getCellName" -> "example.org";
            case "getCellHost" -> {
                if ((int) a[1] > 0) {
                    throw RxException.local(BzErrors.BZDOM, "no host " + a[1]);
                }
                yield "db1.example.org";
            }
            default -> throw new UnsupportedOperationException(m.getName());
        });
        PrServer pr = fake(PrServer.class, (p, m, a) -> switch (m.getName()) {
            case "nameToID" -> ((List<?>) a[1]).stream().map(n -> n.equals("admin") ? 1 : -1).toList();
            case "listEntry" -> {
                if ((int) a[1] != 1) {
                    throw RxException.local(PtErrors.PRNOENT, "no id " + a[1]);
                }
                yield new Prcheckentry(0, 1, -204, -204, 0, 0, 0, List.of(0, 0, 0, 0, 0), "admin");
            }
            default -> throw new UnsupportedOperationException(m.getName());
        });
        InetSocketAddress loopback = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
        server = RxEndpoint.builder().bind(loopback)
                .service(VlDispatcher.service(52, RxNullSecurityClass.INSTANCE, vl))
                .service(BozoDispatcher.service(1, RxNullSecurityClass.INSTANCE, bozo))
                .service(PrDispatcher.service(73, RxNullSecurityClass.INSTANCE, pr))
                .open();
        client = RxEndpoint.builder().bind(loopback).open();
    }

    @AfterAll
    static void stop() {
        client.close();
        server.close();
    }

    @Test
    void vlEntryByNameAndNamedError() throws Exception {
        VlClient vl = VlClient.connect(client, server.localAddress(), 52, RxNullSecurityClass.INSTANCE);
        vl.probeServer();
        assertEquals(rootCell(), vl.getEntryByNameN("root.cell", Duration.ofSeconds(30)));
        RxException e = assertThrows(RxException.class, () -> vl.getEntryByNameN("nothing"));
        assertEquals(VlErrors.VL_NOENT, e.code());
        assertEquals("VL_NOENT (363524): no such entry in the VLDB", VlErrors.describe(e.code()));
        assertTrue(e.getMessage().startsWith("VL_GetEntryByNameN (opcode 519): "), e.getMessage());
    }

    @Test
    void nvldbentryHasRxgensWireSize() throws Exception {
        // name is char[65]: 65 4-byte ints; then 1 + 3 * 13 + 3 + 2 + 9 ints: 476 bytes in all.
        VlClient vl = VlClient.connect(client, server.localAddress(), 52, RxNullSecurityClass.INSTANCE);
        byte[] name = "root.cell".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        ByteBuffer req = ByteBuffer.allocate(8 + 12);
        req.putInt(VlOpcodes.GET_ENTRY_BY_NAME_N).putInt(name.length).put(name).put(new byte[3]);
        byte[] reply = vl.target().call(req.array());
        assertEquals(65 * 4 + 4 * (1 + 3 * 13 + 3 + 2 + 9), reply.length);
        assertEquals('r', ByteBuffer.wrap(reply).getInt(0));
        assertEquals(0, ByteBuffer.wrap(reply).getInt(9 * 4));
    }

    @Test
    void bozoCellNameAndHosts() throws Exception {
        BozoClient bos = BozoClient.connect(client, server.localAddress(), 1, RxNullSecurityClass.INSTANCE);
        assertEquals("example.org", bos.getCellName());
        assertEquals("db1.example.org", bos.getCellHostAsync(0).get());
        RxException e = assertThrows(RxException.class, () -> bos.getCellHost(1));
        assertEquals("BZDOM (39429): an index is out of range", BzErrors.describe(e.code()));
    }

    @Test
    void ptNamesAndEntries() throws Exception {
        PrClient pt = PrClient.connect(client, server.localAddress(), 73, RxNullSecurityClass.INSTANCE);
        assertEquals(List.of(1, -1), pt.nameToID(List.of("admin", "nobody")));
        assertEquals("admin", pt.listEntry(1).name());
        RxException e = assertThrows(RxException.class, () -> pt.listEntry(2));
        assertEquals("PRNOENT (267268): no such user or group", PtErrors.describe(e.code()));
    }
    @Test
    void generatedProcNamesReachInterceptors() throws Exception {
        ConcurrentLinkedQueue<String> seen = new ConcurrentLinkedQueue<>();
        try (RxEndpoint named = RxEndpoint.builder().bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))
                .procNames(VlOpcodes.procNames(52).orElse(BozoOpcodes.procNames(1)).orElse(PrOpcodes.procNames(73)))
                .clientInterceptor(call -> {
                    seen.add(call.procName().orElse("?"));
                    return null;
                })
                .open();
             VlClient vl = VlClient.connect(named, server.localAddress(), 52, RxNullSecurityClass.INSTANCE);
             BozoClient bos = BozoClient.connect(named, server.localAddress(), 1, RxNullSecurityClass.INSTANCE);
             PrClient pt = PrClient.connect(named, server.localAddress(), 73, RxNullSecurityClass.INSTANCE)) {
            vl.probeServer();
            bos.getCellName();
            pt.nameToID(List.of("admin"));
        }
        assertEquals(List.of("VL_ProbeServer", "BOZO_GetCellName", "PR_NameToID"), List.copyOf(seen));
        assertEquals("VL_GetEntryByNameN", VlOpcodes.procName(VlOpcodes.GET_ENTRY_BY_NAME_N));
    }
}
