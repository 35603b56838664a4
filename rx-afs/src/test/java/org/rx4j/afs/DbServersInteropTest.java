// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.afs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.rx4j.afs.pt.PrClient;
import org.rx4j.afs.pt.Prcheckentry;
import org.rx4j.afs.vl.AfsUUID;
import org.rx4j.afs.vl.ListAddrByAttributes;
import org.rx4j.afs.vl.Nvldbentry;
import org.rx4j.afs.vl.VlClient;
import org.rx4j.afs.vl.VlConstants;
import org.rx4j.afs.vl.VlErrors;
import org.rx4j.afs.vl.VlGetAddrsUResult;
import org.rx4j.afs.vl.VlListAttributesResult;
import org.rx4j.afs.vl.VldbListByAttributes;
import org.rx4j.afs.vl.Vldbentry;
import org.rx4j.rpc.RxEndpoint;
import org.rx4j.rpc.errors.RxException;
import org.rx4j.security.RxNullSecurityClass;

/**
 * The VL and PR stubs generated from rx4j's vl.xg and pt.xg against a real OpenAFS vlserver and ptserver
 * (docs/interop.md), each answer compared with what the real {@code vos} and {@code pts} print for the same
 * server. Skipped unless {@code -Drx4j.db.server=ADDR} names the database host; {@code scripts/interop.sh}
 * (section db) starts both servers in a network namespace with {@code scripts/interop/dbservers.sh} and runs this
 * class through Maven inside the peer namespace with:
 *
 * <ul>
 *   <li>{@code rx4j.db.server}: the database host's address (vlserver on UDP 7003, ptserver on UDP 7002);
 *   <li>{@code rx4j.db.config}: a client configuration directory (ThisCell, CellServDB) for {@code vos -config}
 *       and {@code pts -config};
 *   <li>{@code rx4j.db.cell}: the cell's name (default {@code interop.rx4j.test}).
 * </ul>
 *
 * <p>The methods run in order: the entries the first ones create are read by the later ones.
 */
@Timeout(120)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class DbServersInteropTest {
    private static final Duration DEADLINE = Duration.ofSeconds(30);
    private static final String VOLUME = "rx4j.interop";
    private static final int VOLUME_ID = 536_870_999;
    /** A file server address the entry names (it need not exist: the VLDB only records it). */
    private static final String FILE_SERVER = "10.99.0.7";
    /** The addresses a (pretend) multihomed file server registers. */
    private static final String REGISTERED_1 = "10.99.0.8";
    private static final String REGISTERED_2 = "10.99.0.9";
    private static final String USER = "rx4juser";

    private static RxEndpoint endpoint;
    private static VlClient vl;
    private static PrClient pr;
    private static String server;
    private static String config;
    private static String cell;

    @BeforeAll
    static void connect() throws IOException {
        server = System.getProperty("rx4j.db.server", "");
        assumeTrue(!server.isBlank(), "no database server given (-Drx4j.db.server=10.99.0.1)");
        config = System.getProperty("rx4j.db.config", "");
        assertFalse(config.isBlank(), "-Drx4j.db.config=DIR (client ThisCell and CellServDB) is required");
        cell = System.getProperty("rx4j.db.cell", "interop.rx4j.test");
        InetAddress host = InetAddress.getByName(server);
        endpoint = RxEndpoint.builder().bind(new InetSocketAddress(0)).open();
        vl = VlClient.connect(endpoint, new InetSocketAddress(host, 7003), 52, RxNullSecurityClass.INSTANCE);
        pr = PrClient.connect(endpoint, new InetSocketAddress(host, 7002), 73, RxNullSecurityClass.INSTANCE);
    }

    @AfterAll
    static void close() {
        if (endpoint != null) {
            endpoint.close();
        }
    }

    /** VL_Probe (ProbeServer, opcode 514) returns with no error once the server runs. */
    @Test
    @Order(1)
    void vlProbeAnswers() throws IOException {
        vl.probeServer(DEADLINE);
    }

    /** VL_CreateEntry, then VL_GetEntryByNameN: the entry comes back as stored and as vos listvldb prints it. */
    @Test
    @Order(2)
    void createdEntryReadsBackAsVosListvldbPrintsIt() throws Exception {
        vl.createEntry(new Vldbentry(VOLUME, 0, 1,
                padded(List.of(ipv4(FILE_SERVER)), VlConstants.OMAXNSERVERS),
                padded(List.of(0), VlConstants.OMAXNSERVERS),
                padded(List.of(VlConstants.VLSF_RWVOL), VlConstants.OMAXNSERVERS),
                List.of(VOLUME_ID, 0, 0), 0, VlConstants.VLF_RWEXISTS), DEADLINE);

        Nvldbentry entry = vl.getEntryByNameN(VOLUME, DEADLINE);
        assertEquals(VOLUME, entry.name());
        assertEquals(1, entry.nServers());
        assertEquals(ipv4(FILE_SERVER), (int) entry.serverNumber().get(0));
        assertEquals(VOLUME_ID, (int) entry.volumeId().get(0));
        assertEquals(VlConstants.VLF_RWEXISTS, entry.flags() & VlConstants.VLF_RWEXISTS);

        List<String> vos = run("vos", "listvldb", "-name", VOLUME, "-server", server, "-noauth", "-noresolve",
                "-config", config, "-cell", cell);
        List<String> mine = List.of(
                entry.name(),
                "RWrite: " + Integer.toUnsignedString(entry.volumeId().get(0)),
                "number of sites -> " + entry.nServers(),
                "server " + dotted(entry.serverNumber().get(0)) + " partition /vicep"
                        + (char) ('a' + entry.serverPartition().get(0)) + " RW Site");
        assertEquals(mine, trimmed(vos), "rx4j's VL_GetEntryByNameN against vos listvldb -name " + VOLUME);
    }

    /** VL_ListAttributes with an empty mask lists every entry: the same names vos listvldb prints. */
    @Test
    @Order(3)
    void listAttributesNamesWhatVosListvldbNames() throws Exception {
        VlListAttributesResult all = vl.listAttributes(new VldbListByAttributes(0, 0, 0, 0, 0, 0), DEADLINE);
        List<String> mine = new ArrayList<>();
        for (Vldbentry e : all.blkentries()) {
            mine.add(e.name());
        }
        assertEquals(all.nentries(), mine.size());
        assertTrue(mine.contains(VOLUME), "the created entry is listed: " + mine);

        List<String> vosNames = new ArrayList<>();
        for (String line : run("vos", "listvldb", "-noauth", "-noresolve", "-nosort", "-config", config,
                "-cell", cell)) {
            // entry names are the unindented lines between the header and the total
            if (!line.isBlank() && !line.startsWith(" ") && !line.startsWith("VLDB entries")
                    && !line.startsWith("Total entries")) {
                vosNames.add(line.trim());
            }
        }
        Collections.sort(mine);
        Collections.sort(vosNames);
        assertEquals(vosNames, mine, "rx4j's VL_ListAttributes against vos listvldb");
    }

    /**
     * VL_RegisterAddrs (what a file server does at start), then VL_GetAddrs, then
     * VL_GetAddrsU for every index of the table (1-based; VL_NOENT where no server registered): the addresses
     * vos listaddrs -noresolve prints. vos lists only registered servers; the plain address VL_CreateEntry put in the table
     * (test 2) is not printed, so it is not expected either.
     */
    @Test
    @Order(4)
    void registeredAddressesAsVosListaddrsPrintsThem() throws Exception {
        AfsUUID uuid = new AfsUUID(0x7278346a, (short) 0x1234, (short) 0x4567, (byte) 0x89, (byte) 0xab,
                new byte[] {1, 2, 3, 4, 5, 6});
        vl.registerAddrs(uuid, 0, List.of(ipv4(REGISTERED_1), ipv4(REGISTERED_2)), DEADLINE);

        List<String> mine = new ArrayList<>();
        List<Integer> table = vl.getAddrs(0, 0, DEADLINE).blkaddrs();
        assertTrue(table.contains(ipv4(FILE_SERVER)), "the entry's server is in the address table: " + table);
        // vos's walk: every index of the table (1-based), VL_NOENT for an entry that is no registered server
        AfsUUID none = new AfsUUID(0, (short) 0, (short) 0, (byte) 0, (byte) 0, new byte[6]);
        for (int index = 1; index <= table.size(); index++) {
            try {
                VlGetAddrsUResult multi = vl.getAddrsU(
                        new ListAddrByAttributes(VlConstants.VLADDR_INDEX, 0, index, 0, none), DEADLINE);
                for (int a : multi.blkaddrs()) {
                    mine.add(dotted(a));
                }
            } catch (RxException e) {
                assertEquals(VlErrors.VL_NOENT, e.code(), e.getMessage());
            }
        }
        assertEquals(List.of(REGISTERED_1, REGISTERED_2), mine, "GetAddrsU of the registered server");
        List<String> vos = trimmed(run("vos", "listaddrs", "-noauth", "-noresolve", "-config", config,
                "-cell", cell));
        assertEquals(vos, mine, "rx4j's VL_GetAddrs/VL_GetAddrsU against vos listaddrs");
    }

    /** PR_NewEntry, PR_NameToID, PR_IDToName and PR_ListEntry against pts examine. */
    @Test
    @Order(5)
    void newUserAsPtsExaminePrintsIt() throws Exception {
        int id = pr.newEntry(USER, 0, 0, DEADLINE);
        assertTrue(id > 0, "a user's id is positive: " + id);
        assertEquals(List.of(id), pr.nameToID(List.of(USER), DEADLINE));
        assertEquals(List.of(USER), pr.idToName(List.of(id), DEADLINE));

        Prcheckentry entry = pr.listEntry(id, DEADLINE);
        assertEquals(id, entry.id());
        assertEquals(USER, entry.name());
        List<String> names = pr.idToName(List.of(entry.owner(), entry.creator()), DEADLINE);
        String mine = "Name: " + entry.name() + ", id: " + entry.id() + ", owner: " + names.get(0)
                + ", creator: " + names.get(1) + ",";
        List<String> pts = run("pts", "examine", "-nameorid", USER, "-noauth", "-config", config, "-cell", cell);
        assertEquals(mine, pts.get(0), "rx4j's PR_ListEntry against pts examine");
        assertTrue(pts.get(1).trim().startsWith("membership: " + entry.count() + ","), pts.get(1));

        List<String> byId = run("pts", "examine", "-nameorid", Integer.toString(id), "-noauth",
                "-config", config, "-cell", cell);
        assertEquals(pts, byId, "pts examine by name and by rx4j's id agree");
    }

    private static List<Integer> padded(List<Integer> values, int size) {
        List<Integer> out = new ArrayList<>(values);
        while (out.size() < size) {
            out.add(0);
        }
        return out;
    }

    /** An IPv4 address as the VLDB stores it: a host-order 32-bit integer. */
    private static int ipv4(String dotted) throws IOException {
        byte[] b = InetAddress.getByName(dotted).getAddress();
        return (b[0] & 0xff) << 24 | (b[1] & 0xff) << 16 | (b[2] & 0xff) << 8 | b[3] & 0xff;
    }

    private static String dotted(int address) {
        return (address >>> 24) + "." + (address >>> 16 & 0xff) + "." + (address >>> 8 & 0xff) + "." + (address & 0xff);
    }

    private static List<String> trimmed(List<String> lines) {
        List<String> out = new ArrayList<>();
        for (String line : lines) {
            String t = line.strip();
            if (!t.isEmpty() && !t.startsWith("VLDB entries") && !t.startsWith("Total entries")) {
                out.add(t);
            }
        }
        return out;
    }

    /** Runs a real OpenAFS client program ({@link OpenAfsCommands#run}). */
    private static List<String> run(String... command) throws IOException, InterruptedException {
        return OpenAfsCommands.run(command);
    }
}
