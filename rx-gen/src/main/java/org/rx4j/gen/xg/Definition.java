// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.gen.xg;

import java.util.List;

/** A top-level type or constant definition of an {@code .xg} file. */
public sealed interface Definition {
    /** @return the C name */
    String name();

    /** @return where the name is */
    Pos pos();

    /**
     * {@code const NAME = value;}
     *
     * @param name the constant
     * @param value its value
     * @param pos where
     */
    record Const(String name, long value, Pos pos) implements Definition {
    }

    /**
     * {@code enum NAME { A = 1, B };} (a value without {@code =} is the previous one plus 1, the first 0).
     *
     * @param name the enum
     * @param values the constants in file order
     * @param pos where
     */
    record Enum(String name, List<EnumValue> values, Pos pos) implements Definition {
    }

    /**
     * One enum constant.
     *
     * @param name the constant
     * @param value its 32-bit value
     */
    record EnumValue(String name, int value) {
    }

    /**
     * {@code struct NAME { members };}
     *
     * @param name the struct
     * @param members in wire order
     * @param pos where
     */
    record Struct(String name, List<Decl> members, Pos pos) implements Definition {
    }

    /**
     * {@code union NAME switch (T d) { case ...: decl; default: decl; };}
     *
     * @param name the union
     * @param discriminant the switch declaration (an int-like or enum type)
     * @param arms the case arms in file order
     * @param defaultArm the default arm, or null when there is none (an unlisted discriminant is then an error)
     * @param pos where
     */
    record Union(String name, Decl discriminant, List<Arm> arms, Arm defaultArm, Pos pos) implements Definition {
    }

    /**
     * One arm of a union.
     *
     * @param labels the case values (empty for the default arm)
     * @param labelNames the labels as written (numbers or constant names), for readable names
     * @param decl the arm's declaration, or null for {@code void}
     * @param pos where the arm starts
     */
    record Arm(List<Integer> labels, List<String> labelNames, Decl decl, Pos pos) {
    }

    /**
     * {@code typedef decl;} (expanded where used; kept for documentation).
     *
     * @param decl the new name and its type
     */
    record Typedef(Decl decl) implements Definition {
        @Override
        public String name() {
            return decl.name();
        }

        @Override
        public Pos pos() {
            return decl.pos();
        }
    }
}
