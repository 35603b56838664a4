// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.afs.cell;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Finds the servers of a cell's database service the way AFS clients do: the CellServDB entry first (a cell
 * listed there with at least one server wins; its servers on the service's well-known port, in file order), then
 * DNS SRV records (RFC 5864 §5: static configuration takes precedence over DNS).
 */
public final class CellLocator {
    private final CellServDb cellServDb;
    private final DnsSrvLocator dns;

    /**
     * @param cellServDb the parsed CellServDB, or null for none
     * @param dns the SRV locator, or null to not ask DNS
     */
    public CellLocator(CellServDb cellServDb, DnsSrvLocator dns) {
        this.cellServDb = cellServDb;
        this.dns = dns;
    }

    /**
     * @param cell the cell name, any case
     * @param service the database service
     * @return the servers to ask, in order; never empty
     * @throws IOException if neither source knows the cell (message names the cell and what was asked), or DNS
     *     fails
     */
    public List<InetSocketAddress> servers(String cell, AfsService service) throws IOException {
        Optional<Cell> listed = cellServDb == null ? Optional.empty() : cellServDb.cell(cell);
        if (listed.isPresent() && !listed.get().servers().isEmpty()) {
            List<InetSocketAddress> out = new ArrayList<>();
            for (DbServer s : listed.get().servers()) {
                out.add(new InetSocketAddress(s.address(), service.port()));
            }
            return out;
        }
        if (dns != null) {
            List<InetSocketAddress> found = dns.servers(cell, service);
            if (!found.isEmpty()) {
                return found;
            }
        }
        throw new IOException("cell " + cell + ": no servers for " + service.srvPrefix() + " ("
                + (cellServDb == null ? "no CellServDB" : "not in CellServDB") + ", "
                + (dns == null ? "DNS not asked" : "no SRV records") + ")");
    }
}
