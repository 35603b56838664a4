// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.gen.xg;

import java.util.List;
import java.util.Map;

/**
 * A parsed {@code .xg} file.
 *
 * @param file the file name as given
 * @param definitions constants and types in file order (typedefs included, already expanded where used)
 * @param procs every proc in file order, each with its package prefix
 * @param prefixes the package prefixes in file order ("" first if procs come before any {@code package})
 * @param statIndexes {@code statindex N} per package prefix
 * @param notes things parsed but not generated ({@code %} lines, {@code multi}, {@code prefix}), as
 *     {@code file:line:column: note: ...}
 */
public record XgFile(String file, List<Definition> definitions, List<Proc> procs, List<String> prefixes,
                     Map<String, Integer> statIndexes, List<String> notes) {
    /**
     * @param name a type name
     * @return its struct, union or enum definition, or null
     */
    public Definition type(String name) {
        for (Definition d : definitions) {
            if (d.name().equals(name) && !(d instanceof Definition.Const) && !(d instanceof Definition.Typedef)) {
                return d;
            }
        }
        return null;
    }
}
