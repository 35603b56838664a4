// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.afs.cell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * SRV lookups (RFC 5864) against a DNS server the test starts on loopback: Debian's dnsmasq with
 * {@code --no-resolv} (it asks nobody else) and {@code --srv-host}/{@code --host-record} entries for a made-up
 * cell. Skipped, with the reason, when dnsmasq is not installed ({@code apt-get install dnsmasq-base}).
 */
@Timeout(60)
class DnsSrvLocatorTest {
    private static final Path DNSMASQ = Path.of("/usr/sbin/dnsmasq");
    private static final String CELL = "srv.rx4j.test";
    private static Process dnsmasq;
    private static String server;
    /** How long dnsmasq may take to answer its first query after start, and the wait between tries. */
    private static final Duration READY_BUDGET = Duration.ofSeconds(10);
    private static final Duration READY_STEP = Duration.ofMillis(10);

    @BeforeAll
    static void startDnsmasq() throws Exception {
        assumeTrue(Files.isExecutable(DNSMASQ), "dnsmasq is not installed (apt-get install dnsmasq-base): SRV "
                + "lookups untested");
        int port;
        try (DatagramSocket probe = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
            port = probe.getLocalPort();    // a free port; dnsmasq binds it right after (a race this test accepts)
        }
        server = "127.0.0.1:" + port;
        dnsmasq = new ProcessBuilder(DNSMASQ.toString(), "--keep-in-foreground", "--no-resolv", "--no-hosts",
                "--no-daemon", "--bind-interfaces", "--listen-address=127.0.0.1", "--port=" + port,
                "--user=root", "--pid-file", "--conf-file=/dev/null",
                // answer NXDOMAIN for other names of the test domain (without upstream servers it would refuse)
                "--local=/rx4j.test/",
                // two VL servers of different priority, the lower number first; two at priority 0 with weights
                "--srv-host=_afs3-vlserver._udp." + CELL + ",db2." + CELL + ",7003,10,0",
                "--srv-host=_afs3-vlserver._udp." + CELL + ",db1." + CELL + ",7003,0,5",
                "--srv-host=_afs3-vlserver._udp." + CELL + ",db3." + CELL + ",7013,0,50",
                "--srv-host=_afs3-prserver._udp." + CELL + ",db1." + CELL + ",7002,0,0",
                "--host-record=db1." + CELL + ",10.99.1.1",
                "--host-record=db2." + CELL + ",10.99.1.2",
                "--host-record=db3." + CELL + ",10.99.1.3")
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        // Ready when it answers: the PR record is there from the start. Until dnsmasq binds, a query comes back at
        // once as port-unreachable, so the retry sleeps between tries and gives up after a fixed time, not a count.
        DnsSrvLocator dns = new DnsSrvLocator(server, Duration.ofMillis(200));
        long giveUp = System.nanoTime() + READY_BUDGET.toNanos();
        while (true) {
            IOException failure = null;
            try {
                if (!dns.servers(CELL, AfsService.PRSERVER).isEmpty()) {
                    break;
                }
            } catch (IOException e) {
                failure = e;
            }
            if (System.nanoTime() - giveUp >= 0 || !dnsmasq.isAlive()) {
                throw new IllegalStateException("dnsmasq on " + server + " does not answer within "
                        + READY_BUDGET.toMillis() + " ms", failure);
            }
            Thread.sleep(READY_STEP.toMillis());
        }
    }

    @AfterAll
    static void stopDnsmasq() throws InterruptedException {
        if (dnsmasq != null) {
            dnsmasq.destroy();
            dnsmasq.waitFor(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void vlserversInPriorityThenWeightOrder() throws Exception {
        List<InetSocketAddress> vl = new DnsSrvLocator(server, Duration.ofSeconds(1)).servers(CELL, AfsService.VLSERVER);
        assertEquals(List.of(new InetSocketAddress("10.99.1.3", 7013), new InetSocketAddress("10.99.1.1", 7003),
                new InetSocketAddress("10.99.1.2", 7003)), vl);
    }

    @Test
    void prserverAndUnknownCell() throws Exception {
        DnsSrvLocator dns = new DnsSrvLocator(server, Duration.ofSeconds(1));
        assertEquals(List.of(new InetSocketAddress("10.99.1.1", 7002)), dns.servers(CELL, AfsService.PRSERVER));
        assertEquals(List.of(), dns.servers("nowhere.rx4j.test", AfsService.VLSERVER));
    }

    @Test
    void locatorFallsBackToDnsForACellNotInCellServDb() throws Exception {
        CellLocator locator = new CellLocator(CellServDb.parse(">other.example\n10.0.0.1\n", "db"),
                new DnsSrvLocator(server, Duration.ofSeconds(1)));
        assertEquals(new InetSocketAddress("10.99.1.1", 7002), locator.servers(CELL, AfsService.PRSERVER).get(0));
        assertEquals(new InetSocketAddress("10.0.0.1", 7003), locator.servers("other.example", AfsService.VLSERVER).get(0));
        IOException e = assertThrows(IOException.class, () -> locator.servers("nowhere.rx4j.test", AfsService.PRSERVER));
        assertTrue(e.getMessage().contains("not in CellServDB, no SRV records"), e.getMessage());
    }

    @Test
    void malformedSrvDataIsRefused() {
        IOException e = assertThrows(IOException.class, () -> DnsSrvLocator.parse("0 0 x host.", "n"));
        assertEquals("SRV record of n is not 'priority weight port target': '0 0 x host.'", e.getMessage());
    }
}
