// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.gen.xg;

import java.util.List;

/**
 * A remote procedure: {@code [proc] Name(params) [split] [multi] = opcode;}.
 *
 * @param name the name as written (without the package prefix)
 * @param prefix the package prefix in force ({@code package VL_}), "" if none
 * @param params the parameters in order
 * @param split true for a split proc: IN arguments, then bulk data on the call, then OUT results
 * @param multi true if marked {@code multi} (its multi-server variant is not generated)
 * @param opcode the opcode, signed 32-bit
 * @param pos where the name is
 */
public record Proc(String name, String prefix, List<Param> params, boolean split, boolean multi, int opcode,
                   Pos pos) {
    /** @return the name rxgen's C uses, prefix included, e.g. {@code VL_GetEntryByID} */
    public String fullName() {
        return prefix + name;
    }

    /** @return the parameters sent by the client (IN and INOUT) */
    public List<Param> inputs() {
        return params.stream().filter(p -> p.direction() != Param.Direction.OUT).toList();
    }

    /** @return the parameters returned by the server (OUT and INOUT) */
    public List<Param> outputs() {
        return params.stream().filter(p -> p.direction() != Param.Direction.IN).toList();
    }
}
