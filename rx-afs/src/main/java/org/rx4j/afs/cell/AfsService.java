// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.afs.cell;

/**
 * The replicated database services a cell's database servers run, with what a client needs to find and call
 * them: the DNS SRV owner-name prefix (RFC 5864 §3), the well-known UDP port and the Rx service id.
 */
public enum AfsService {
    /** Volume location server: {@code _afs3-vlserver._udp}, UDP 7003, service 52. */
    VLSERVER("_afs3-vlserver._udp", 7003, 52),
    /** Protection server: {@code _afs3-prserver._udp}, UDP 7002, service 73. */
    PRSERVER("_afs3-prserver._udp", 7002, 73);

    private final String srvPrefix;
    private final int port;
    private final int serviceId;

    AfsService(String srvPrefix, int port, int serviceId) {
        this.srvPrefix = srvPrefix;
        this.port = port;
        this.serviceId = serviceId;
    }

    /** @return the SRV owner-name prefix; the record's name is {@code PREFIX.CELL} */
    public String srvPrefix() {
        return srvPrefix;
    }

    /** @return the service's well-known UDP port (used for CellServDB servers, which carry no port) */
    public int port() {
        return port;
    }

    /** @return the Rx service id the server registers */
    public int serviceId() {
        return serviceId;
    }
}
