// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.rx4j.rpc.RxEndpoint;
import org.rx4j.rpc.errors.RxException;
import org.rx4j.wire.AbortCodes;

/**
 * rx4j's client API and XDR against a real OpenAFS bosserver (docs/interop.md). Skipped unless
 * {@code -Drx4j.bos.server=127.0.0.1:7007} names a running {@code bosserver -noauth}; {@code
 * scripts/interop.sh} (section bos) starts one in a private mount namespace and runs this class with:
 *
 * <ul>
 *   <li>{@code rx4j.bos.server}: host:port of the bosserver (loopback);
 *   <li>{@code rx4j.bos.listhosts}: a file holding what {@code bos listhosts -server 127.0.0.1 -noauth}
 *       printed just before (the real client's view, to compare with);
 *   <li>{@code rx4j.bos.addHost}: a host not yet in the cell, added with AddCellHost (default 10.9.8.6);
 *       the script then checks that real {@code bos listhosts} shows it.
 * </ul>
 *
 * <p>The methods run in order: the listing is compared before the host is added.
 */
@Timeout(60)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class BosInteropTest {
    private static final String SERVER_PROPERTY = "rx4j.bos.server";
    /** Most hosts a cell may list before the test gives up waiting for BZDOM (bosserver keeps at most 8). */
    private static final int HOST_LIMIT = 64;

    private static RxEndpoint endpoint;
    private static BosClient bos;

    @BeforeAll
    static void connect() throws IOException {
        String server = System.getProperty(SERVER_PROPERTY, "");
        assumeTrue(!server.isBlank(), "no bosserver given (-D" + SERVER_PROPERTY + "=127.0.0.1:7007)");
        int colon = server.lastIndexOf(':');
        InetSocketAddress address = new InetSocketAddress(InetAddress.getByName(server.substring(0, colon)),
                Integer.parseInt(server.substring(colon + 1)));
        assertTrue(address.getAddress().isLoopbackAddress(), "network tests stay on loopback: " + server);
        endpoint = RxEndpoint.builder().bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0)).open();
        bos = new BosClient(endpoint, address);
    }

    @AfterAll
    static void disconnect() {
        if (bos != null) {
            bos.close();
        }
        if (endpoint != null) {
            endpoint.close();
        }
    }

    /** GetCellName, then GetCellHost(0, 1, ...) until BZDOM, printed as bos prints them (bos.c ListHosts). */
    @Test
    @Order(1)
    void cellNameAndHostsEqualWhatBosListhostsPrinted() throws IOException {
        String file = System.getProperty("rx4j.bos.listhosts", "");
        assertFalse(file.isBlank(), "-Drx4j.bos.listhosts=FILE (the output of bos listhosts) is required");
        List<String> expected = Files.readAllLines(Path.of(file), StandardCharsets.ISO_8859_1);

        String cell = bos.getCellName();
        List<String> hosts = bos.getCellHosts(HOST_LIMIT);
        List<String> listing = new ArrayList<>();
        listing.add("Cell name is " + cell);
        for (int i = 0; i < hosts.size(); i++) {
            listing.add("    Host " + (i + 1) + " is " + hosts.get(i));
        }
        System.out.println("rx4j GetCellName/GetCellHost: " + listing);
        assertFalse(hosts.isEmpty(), "a cell has at least one database host");
        assertEquals(expected, listing, "rx4j's view of the cell against bos listhosts");
    }

    /** GetCellHost at the first index past the last host aborts with BZDOM, surfaced as a remote RxException. */
    @Test
    @Order(2)
    void getCellHostPastTheLastHostIsBzdom() throws IOException {
        int count = bos.getCellHosts(HOST_LIMIT).size();
        RxException e = assertThrows(RxException.class, () -> bos.getCellHost(count));
        assertEquals(BosClient.BZDOM, e.code());
        assertTrue(e.remote(), "the server sent the abort");
    }

    /** AddCellHost appends the host; rx4j sees it at once (and the script checks real bos sees it). */
    @Test
    @Order(3)
    void addCellHostAppendsTheHost() throws IOException {
        String host = System.getProperty("rx4j.bos.addHost", "10.9.8.6");
        List<String> before = bos.getCellHosts(HOST_LIMIT);
        assertFalse(before.contains(host), "host " + host + " is already in the cell: " + before);

        bos.addCellHost(host);

        List<String> expected = new ArrayList<>(before);
        expected.add(host);
        List<String> after = bos.getCellHosts(HOST_LIMIT);
        System.out.println("rx4j AddCellHost(" + host + "): hosts " + after);
        assertEquals(expected, after);
    }

    /** Opcodes outside bosint's 80..116: the rxgen dispatcher aborts with RXGEN_OPCODE (−455). */
    @ParameterizedTest
    @ValueSource(ints = {BosClient.LOWEST_OPCODE - 1, BosClient.HIGHEST_OPCODE + 1, 9999})
    @Order(4)
    void opcodeTheServerLacksAbortsWithRxgenOpcode(int opcode) {
        RxException e = assertThrows(RxException.class, () -> bos.callWithoutArguments(opcode));
        assertEquals(AbortCodes.RXGEN_OPCODE, e.code(), e.getMessage());
        assertEquals(-455, e.code());
        assertEquals("RXGEN_OPCODE", e.codeName());
        assertTrue(e.remote(), "the server sent the abort");
    }
}
