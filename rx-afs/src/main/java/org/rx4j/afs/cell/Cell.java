// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.afs.cell;

import java.util.List;
import java.util.Objects;

/**
 * A cell and its database servers, in the order its CellServDB entry lists them.
 *
 * @param name the cell's name, lower case as AFS compares cell names ({@code example.org})
 * @param comment the text after {@code #} on the cell's line, or {@code ""}
 * @param servers the database servers (possibly empty: a cell line without server lines)
 */
public record Cell(String name, String comment, List<DbServer> servers) {
    /**
     * @throws NullPointerException if any argument is null
     */
    public Cell {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(comment, "comment");
        servers = List.copyOf(servers);
    }
}
