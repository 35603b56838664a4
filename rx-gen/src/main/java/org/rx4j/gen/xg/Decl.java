// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.gen.xg;

/**
 * A named declaration: a struct member, a union arm, a typedef or a proc parameter.
 *
 * @param name the C name
 * @param type its type, typedefs expanded
 * @param pos where the name is
 */
public record Decl(String name, XdrType type, Pos pos) {
}
