// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.gen.xg;

/**
 * The type of a declaration after typedefs are expanded (Java has no type aliases): what goes on the wire and
 * which Java type holds it. Bounds are kept with their constant names for readable generated code.
 */
public sealed interface XdrType {
    /**
     * A scalar.
     *
     * @param prim which one
     */
    record Scalar(Prim prim) implements XdrType {
    }

    /**
     * A struct, union or enum named in the file (resolved after parsing; see {@link Parser}).
     *
     * @param name the C name
     * @param pos where it was referenced, for "unknown type" errors
     */
    record Named(String name, Pos pos) implements XdrType {
    }

    /**
     * {@code string x<N>}: a length then bytes (ISO-8859-1 in Java).
     *
     * @param max most bytes
     */
    record Str(Bound max) implements XdrType {
    }

    /**
     * {@code opaque x[N]}: exactly N bytes, padded to 4.
     *
     * @param size bytes
     */
    record OpaqueFixed(Bound size) implements XdrType {
    }

    /**
     * {@code opaque x<N>}: a length then bytes, padded to 4.
     *
     * @param max most bytes
     */
    record OpaqueVar(Bound max) implements XdrType {
    }

    /**
     * {@code char x[N]}: rxgen's fixed char array, N 4-byte ints on the wire (one per char), a NUL-terminated
     * C string in practice; a Java String of at most N-1 chars.
     *
     * @param size chars on the wire
     */
    record CharArray(Bound size) implements XdrType {
    }

    /**
     * {@code T x[N]}: exactly N elements, no count.
     *
     * @param element the element type
     * @param size elements
     */
    record FixedArray(XdrType element, Bound size) implements XdrType {
    }

    /**
     * {@code T x<N>}: a count then the elements.
     *
     * @param element the element type
     * @param max most elements
     */
    record VarArray(XdrType element, Bound max) implements XdrType {
    }

    /**
     * {@code T *x}: optional data, a bool then the value if present.
     *
     * @param element the present value's type
     */
    record Optional(XdrType element) implements XdrType {
    }
}
