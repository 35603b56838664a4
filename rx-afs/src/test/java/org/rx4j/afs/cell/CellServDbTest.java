// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.afs.cell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URISyntaxException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.nio.file.Paths;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** CellServDB and ThisCell parsing: the accepted shapes and each malformed line named with its number. */
class CellServDbTest {
    private static final String SAMPLE = """
            >example.org          #Example Organization
            10.0.0.1              #afsdb1.example.org
              10.0.0.2	#afsdb2.example.org
            [10.0.0.3]            #afsdb3.example.org

            # a comment line
            >Other.Example.NET
            192.168.7.9
            >empty.example        #a cell without servers
            """;

    @Test
    void parsesCellsServersCommentsAndClones() throws Exception {
        CellServDb db = CellServDb.parse(SAMPLE, "sample");
        assertEquals(List.of("example.org", "other.example.net", "empty.example"), List.copyOf(db.cells().keySet()));
        Cell cell = db.cell("EXAMPLE.org").orElseThrow();
        assertEquals("Example Organization", cell.comment());
        assertEquals(3, cell.servers().size());
        assertEquals(InetAddress.getByName("10.0.0.2"), cell.servers().get(1).address());
        assertEquals("afsdb2.example.org", cell.servers().get(1).host());
        assertFalse(cell.servers().get(1).nonVoting());
        assertTrue(cell.servers().get(2).nonVoting());
        Cell other = db.cell("other.example.net").orElseThrow();
        assertEquals("", other.comment());
        assertEquals("", other.servers().get(0).host());
        assertTrue(db.cell("empty.example").orElseThrow().servers().isEmpty());
        assertTrue(db.cell("nowhere.example").isEmpty());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "10.0.0.1 #before any cell|1|a server line before any '>cell' line",
        ">example.org\\n>  #no name|2|a cell line without a cell name",
        ">example.org extra #x|1|text after the cell name that is not a #comment",
        ">example.org\\n10.0.0.1\\n>EXAMPLE.ORG|3|cell example.org is listed twice",
        ">example.org\\nafsdb1.example.org #host|2|not an IPv4 address (a.b.c.d)",
        ">example.org\\n10.0.0.256|2|not an IPv4 address (a.b.c.d)",
        ">example.org\\n10.0.0|2|not an IPv4 address (a.b.c.d)",
        ">example.org\\n\\n10.0.0.1 afsdb1|3|text after the address that is not a #comment",
        ">example.org\\n[10.0.0.1 #x|2|a '[' without its ']'",
    })
    void malformedLineIsNamed(String text, int line, String problem) {
        CellFormatException e = assertThrows(CellFormatException.class,
                () -> CellServDb.parse(text.replace("\\n", "\n"), "CellServDB"));
        assertEquals(line, e.line());
        assertEquals("CellServDB", e.source());
        assertTrue(e.getMessage().startsWith("CellServDB:" + line + ": " + problem + ": '"), e.getMessage());
    }

    @Test
    void readsFilesWithTheirNameInErrors(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("CellServDB");
        Files.writeString(file, ">a.example\n10.1.2.3 #db\nbad\n");
        CellFormatException e = assertThrows(CellFormatException.class, () -> CellServDb.read(file));
        assertTrue(e.getMessage().startsWith(file + ":3: not an IPv4 address"), e.getMessage());

        Path thisCell = dir.resolve("ThisCell");
        Files.writeString(thisCell, "  Example.ORG \n");
        assertEquals("example.org", ThisCell.read(thisCell));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {"''|no cell name", "'   \\nexample.org'|no cell name",
        "example.org other|more than one word where a cell name belongs"})
    void malformedThisCellIsNamed(String text, String problem) {
        CellFormatException e = assertThrows(CellFormatException.class,
                () -> ThisCell.parse(text.replace("\\n", "\n"), "ThisCell"));
        assertTrue(e.getMessage().startsWith("ThisCell:1: " + problem), e.getMessage());
    }

    @Test
    void locatorPrefersCellServDbAndUsesTheServicePort() throws Exception {
        CellLocator locator = new CellLocator(CellServDb.parse(SAMPLE, "sample"), null);
        assertEquals(7003, locator.servers("example.org", AfsService.VLSERVER).get(0).getPort());
        assertEquals(7002, locator.servers("example.org", AfsService.PRSERVER).get(2).getPort());
        IOException e = assertThrows(IOException.class, () -> locator.servers("empty.example", AfsService.VLSERVER));
        assertEquals("cell empty.example: no servers for _afs3-vlserver._udp (not in CellServDB, DNS not asked)",
                e.getMessage());
    }
    private static Path debianExcerpt() throws URISyntaxException {
        return Paths.get(CellServDbTest.class.getResource("CellServDB.debian").toURI());
    }

    @Test
    void readsDebiansStockFileWithItsLatin1Comment() throws Exception {
        // An excerpt of Debian's /etc/openafs/CellServDB, with its one ISO-8859-1 byte (0xE4) kept.
        Path file = debianExcerpt();
        byte[] bytes = Files.readAllBytes(file);
        assertTrue(new String(bytes, java.nio.charset.StandardCharsets.ISO_8859_1).contains("Universit\u00e4t"),
                "the fixture keeps the Latin-1 byte");
        CellServDb db = CellServDb.read(file);
        Cell wuppertal = db.cell("physik.uni-wuppertal.de").orElseThrow();
        assertEquals("Physics department of Bergische Universit\u00e4t Wuppertal", wuppertal.comment());
        assertEquals("afs1.physik.uni-wuppertal.de", wuppertal.servers().get(0).host());
        assertEquals(InetAddress.getByName("132.195.104.3"), wuppertal.servers().get(0).address());
        assertEquals("grand.mit.edu", db.cell("grand.central.org").orElseThrow().servers().get(0).host());
    }

    @Test
    void readsTheInstalledStockFile() throws Exception {
        Path stock = Path.of("/etc/openafs/CellServDB");
        Assumptions.assumeTrue(Files.isReadable(stock), "no /etc/openafs/CellServDB (openafs-client not installed)");
        CellServDb db = CellServDb.read(stock);
        assertTrue(db.cells().size() > 100, "cells: " + db.cells().size());
        assertTrue(db.cell("grand.central.org").isPresent());
    }

    @Test
    void readFailureNamesTheFile(@TempDir Path dir) {
        Path missing = dir.resolve("CellServDB");
        IOException e = assertThrows(IOException.class, () -> CellServDb.read(missing));
        assertTrue(e.getMessage().startsWith(missing + ": cannot read the CellServDB"), e.getMessage());
        IOException cell = assertThrows(IOException.class, () -> ThisCell.read(dir.resolve("ThisCell")));
        assertTrue(cell.getMessage().startsWith(dir.resolve("ThisCell") + ": no such file"), cell.getMessage());
        assertTrue(cell.getMessage().contains("cell's name"), cell.getMessage());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {"afsdb1.example.org|afsdb1.example.org", "db|db",
        "10.99.0.1|''", "afsdb3.example.org (a non-voting clone)|afsdb3.example.org", "''|''",
        "the first server|the", "[10.0.0.1]|''", "-bad|''", "a..b|''"})
    void hostNameOnlyWhenTheCommentIsOne(String comment, String host) {
        assertEquals(host, CellServDb.hostName(comment));
    }

    @Test
    void locatorAddressesCarryNoNameFromTheComment() throws Exception {
        CellServDb db = CellServDb.parse(">example.org\n10.99.0.1 #10.99.0.1\n10.99.0.2 #db\n", "sample");
        List<InetSocketAddress> servers = new CellLocator(db, null).servers("example.org", AfsService.VLSERVER);
        assertEquals("/10.99.0.1:7003", servers.get(0).toString());
        assertEquals("/10.99.0.2:7003", servers.get(1).toString());
        assertEquals("", db.cell("example.org").orElseThrow().servers().get(0).host());
        assertEquals("db", db.cell("example.org").orElseThrow().servers().get(1).host());
    }
}
