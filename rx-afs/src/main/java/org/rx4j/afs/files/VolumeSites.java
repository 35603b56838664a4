// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.afs.files;

import java.net.InetSocketAddress;
import java.util.List;

/**
 * Where one volume is served, from its VLDB entry.
 *
 * @param name the volume's name as the VLDB has it (the read-write name)
 * @param id the id asked for (read-write, read-only or backup)
 * @param readOnly whether {@code id} is the read-only clone
 * @param servers the fileservers holding {@code id} (port 7000), in the VLDB's order: a read-only volume's
 *     replicas are tried in turn
 * @param readOnlyId the read-only clone's id, 0 when the VLDB lists no read-only site
 */
public record VolumeSites(String name, int id, boolean readOnly, List<InetSocketAddress> servers, int readOnlyId) {
    /**
     * @throws IllegalArgumentException if no server is listed
     */
    public VolumeSites {
        servers = List.copyOf(servers);
        if (servers.isEmpty()) {
            throw new IllegalArgumentException("volume " + name + " (" + Integer.toUnsignedString(id)
                    + ") has no site");
        }
    }
}
