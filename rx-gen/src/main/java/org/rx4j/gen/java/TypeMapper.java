// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.gen.java;

import java.util.Set;
import org.rx4j.gen.xg.Bound;
import org.rx4j.gen.xg.XdrType;

/**
 * The Java side of each XDR type: the Java type that holds it, the statement that writes it with an
 * {@code XdrWriter}, the expression that reads it with an {@code XdrReader}, and an {@code XdrCodec} for
 * arrays and optional data. See docs/rxgen.md for the table.
 */
final class TypeMapper {
    private final String constantsClass;
    private final String xdrClass;
    private final Set<String> constNames;

    /**
     * @param constantsClass the generated class holding the file's constants
     * @param xdrClass the generated helper class (fixed char arrays, small codecs)
     * @param constNames the names declared with {@code const} (bounds written with them stay symbolic)
     */
    TypeMapper(String constantsClass, String xdrClass, Set<String> constNames) {
        this.constantsClass = constantsClass;
        this.xdrClass = xdrClass;
        this.constNames = constNames;
    }

    /**
     * @param t the XDR type
     * @param boxed true where a reference type is needed (generics, nullable)
     * @return the Java type
     */
    String javaType(XdrType t, boolean boxed) {
        if (t instanceof XdrType.Scalar s) {
            return switch (s.prim()) {
                case INT, UINT -> boxed ? "Integer" : "int";
                case HYPER, UHYPER -> boxed ? "Long" : "long";
                case SHORT, USHORT -> boxed ? "Short" : "short";
                case CHAR, UCHAR -> boxed ? "Byte" : "byte";
                case BOOL -> boxed ? "Boolean" : "boolean";
            };
        }
        if (t instanceof XdrType.Named n) {
            return Names.type(n.name());
        }
        if (t instanceof XdrType.Str || t instanceof XdrType.CharArray) {
            return "String";
        }
        if (t instanceof XdrType.OpaqueFixed || t instanceof XdrType.OpaqueVar || isUcharArray(t)) {
            return "byte[]";
        }
        if (t instanceof XdrType.FixedArray a) {
            return "List<" + javaType(a.element(), true) + ">";
        }
        if (t instanceof XdrType.VarArray a) {
            return "List<" + javaType(a.element(), true) + ">";
        }
        return javaType(((XdrType.Optional) t).element(), true);
    }

    /**
     * @param t the XDR type
     * @param w the writer variable
     * @param v the value expression
     * @return a statement (without ';') writing v
     */
    String encode(XdrType t, String w, String v) {
        if (t instanceof XdrType.Scalar s) {
            return switch (s.prim()) {
                case INT, UINT, SHORT, CHAR -> w + ".writeInt(" + v + ")";
                case USHORT -> w + ".writeInt(" + v + " & 0xFFFF)";
                case UCHAR -> w + ".writeInt(" + v + " & 0xFF)";
                case HYPER, UHYPER -> w + ".writeLong(" + v + ")";
                case BOOL -> w + ".writeBoolean(" + v + ")";
            };
        }
        if (t instanceof XdrType.Named n) {
            return Names.type(n.name()) + ".encode(" + w + ", " + v + ")";
        }
        if (t instanceof XdrType.Str s) {
            return w + ".writeString(" + v + ", " + bound(s.max()) + ")";
        }
        if (t instanceof XdrType.OpaqueVar o) {
            return w + ".writeOpaque(" + v + ", " + bound(o.max()) + ")";
        }
        if (t instanceof XdrType.OpaqueFixed o) {
            return xdrClass + ".writeOpaqueFixed(" + w + ", " + v + ", " + bound(o.size()) + ")";
        }
        if (t instanceof XdrType.CharArray c) {
            return xdrClass + ".writeChars(" + w + ", " + v + ", " + bound(c.size()) + ")";
        }
        if (isUcharArray(t)) {
            return xdrClass + ".writeBytes(" + w + ", " + v + ", " + bound(((XdrType.FixedArray) t).size()) + ")";
        }
        if (t instanceof XdrType.FixedArray a) {
            return w + ".writeFixedArray(" + v + ", " + bound(a.size()) + ", " + codec(a.element()) + ")";
        }
        if (t instanceof XdrType.VarArray a) {
            return w + ".writeArray(" + v + ", " + bound(a.max()) + ", " + codec(a.element()) + ")";
        }
        return w + ".writeOptional(" + v + ", " + codec(((XdrType.Optional) t).element()) + ")";
    }

    /**
     * @param t the XDR type
     * @param r the reader variable
     * @return an expression reading one value; lengths are checked against the bound before allocation
     */
    String decode(XdrType t, String r) {
        if (t instanceof XdrType.Scalar s) {
            return switch (s.prim()) {
                case INT, UINT -> r + ".readInt()";
                case SHORT, USHORT -> "(short) " + r + ".readInt()";
                case CHAR, UCHAR -> "(byte) " + r + ".readInt()";
                case HYPER, UHYPER -> r + ".readLong()";
                case BOOL -> r + ".readBoolean()";
            };
        }
        if (t instanceof XdrType.Named n) {
            return Names.type(n.name()) + ".decode(" + r + ")";
        }
        if (t instanceof XdrType.Str s) {
            return r + ".readString(" + bound(s.max()) + ")";
        }
        if (t instanceof XdrType.OpaqueVar o) {
            return r + ".readOpaque(" + bound(o.max()) + ")";
        }
        if (t instanceof XdrType.OpaqueFixed o) {
            return r + ".readOpaqueFixed(" + bound(o.size()) + ")";
        }
        if (t instanceof XdrType.CharArray c) {
            return xdrClass + ".readChars(" + r + ", " + bound(c.size()) + ")";
        }
        if (isUcharArray(t)) {
            return xdrClass + ".readBytes(" + r + ", " + bound(((XdrType.FixedArray) t).size()) + ")";
        }
        if (t instanceof XdrType.FixedArray a) {
            return r + ".readFixedArray(" + bound(a.size()) + ", " + codec(a.element()) + ")";
        }
        if (t instanceof XdrType.VarArray a) {
            return r + ".readArray(" + bound(a.max()) + ", " + codec(a.element()) + ")";
        }
        return r + ".readOptional(" + codec(((XdrType.Optional) t).element()) + ")";
    }

    /**
     * @param t the element type
     * @return an expression of type {@code XdrCodec<boxed t>}
     */
    String codec(XdrType t) {
        if (t instanceof XdrType.Scalar s) {
            return switch (s.prim()) {
                case INT, UINT -> "XdrCodec.INT32";
                case HYPER, UHYPER -> "XdrCodec.INT64";
                case BOOL -> "XdrCodec.BOOL";
                case SHORT -> xdrClass + ".SHORT";
                case USHORT -> xdrClass + ".USHORT";
                case CHAR -> xdrClass + ".CHAR";
                case UCHAR -> xdrClass + ".UCHAR";
            };
        }
        if (t instanceof XdrType.Named n) {
            return Names.type(n.name()) + ".CODEC";
        }
        if (t instanceof XdrType.Str s) {
            return "XdrCodec.string(" + bound(s.max()) + ")";
        }
        if (t instanceof XdrType.OpaqueVar o) {
            return "XdrCodec.opaque(" + bound(o.max()) + ")";
        }
        if (t instanceof XdrType.OpaqueFixed o) {
            return xdrClass + ".opaqueFixed(" + bound(o.size()) + ")";
        }
        if (t instanceof XdrType.CharArray c) {
            return xdrClass + ".chars(" + bound(c.size()) + ")";
        }
        if (isUcharArray(t)) {
            return xdrClass + ".bytes(" + bound(((XdrType.FixedArray) t).size()) + ")";
        }
        if (t instanceof XdrType.FixedArray a) {
            return xdrClass + ".fixedArray(" + bound(a.size()) + ", " + codec(a.element()) + ")";
        }
        if (t instanceof XdrType.VarArray a) {
            return "XdrCodec.array(" + bound(a.max()) + ", " + codec(a.element()) + ")";
        }
        return "XdrCodec.optional(" + codec(((XdrType.Optional) t).element()) + ")";
    }

    /**
     * @param t a type
     * @return a human description for Javadoc, e.g. {@code string<64>}
     */
    String describe(XdrType t) {
        if (t instanceof XdrType.Scalar s) {
            return switch (s.prim()) {
                case INT -> "int";
                case UINT -> "unsigned int (Java keeps the 32 bits)";
                case HYPER -> "hyper";
                case UHYPER -> "unsigned hyper (Java keeps the 64 bits)";
                case SHORT -> "short";
                case USHORT -> "unsigned short (Java keeps the 16 bits)";
                case CHAR -> "char";
                case UCHAR -> "unsigned char (Java keeps the 8 bits)";
                case BOOL -> "bool";
            };
        }
        if (t instanceof XdrType.Named n) {
            return n.name();
        }
        if (t instanceof XdrType.Str s) {
            return "string" + angle(s.max());
        }
        if (t instanceof XdrType.OpaqueVar o) {
            return "opaque" + angle(o.max());
        }
        if (t instanceof XdrType.OpaqueFixed o) {
            return "opaque[" + text(o.size()) + "]";
        }
        if (t instanceof XdrType.CharArray c) {
            return "char[" + text(c.size()) + "] (one 4-byte int per char; at most " + (c.size().value() - 1)
                    + " chars, NUL-padded)";
        }
        if (isUcharArray(t)) {
            return "unsigned char[" + text(((XdrType.FixedArray) t).size()) + "] (one 4-byte int per byte)";
        }
        if (t instanceof XdrType.FixedArray a) {
            return describe(a.element()) + "[" + text(a.size()) + "]";
        }
        if (t instanceof XdrType.VarArray a) {
            return describe(a.element()) + angle(a.max());
        }
        return describe(((XdrType.Optional) t).element()) + " * (null when absent)";
    }

    /** @return true if values of t are arrays (compared with Arrays.equals in records) */
    static boolean isByteArray(XdrType t) {
        return t instanceof XdrType.OpaqueFixed || t instanceof XdrType.OpaqueVar || isUcharArray(t)
                || t instanceof XdrType.Optional o && isByteArray(o.element());
    }

    /** {@code unsigned char x[N]}: binary bytes, each a 4-byte int on the wire; a byte[] in Java. */
    static boolean isUcharArray(XdrType t) {
        return t instanceof XdrType.FixedArray a && a.element() instanceof XdrType.Scalar s
                && s.prim() == org.rx4j.gen.xg.Prim.UCHAR;
    }

    private static String angle(Bound b) {
        return b.unbounded() ? "<>" : "<" + text(b) + ">";
    }

    private static String text(Bound b) {
        return b.symbol() != null ? b.symbol() + " = " + b.value() : Long.toString(b.value());
    }

    /** A bound as Java: the constant when it was written as one, else the number. */
    String bound(Bound b) {
        if (b.symbol() != null && constNames.contains(b.symbol())) {
            return constantsClass + "." + b.symbol();
        }
        return b.unbounded() ? "XdrReader.MAX_LENGTH" : Long.toString(b.value());
    }
}
