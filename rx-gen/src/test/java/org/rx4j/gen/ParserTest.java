// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.gen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.rx4j.gen.xg.Bound;
import org.rx4j.gen.xg.Decl;
import org.rx4j.gen.xg.Definition;
import org.rx4j.gen.xg.Param;
import org.rx4j.gen.xg.Parser;
import org.rx4j.gen.xg.Prim;
import org.rx4j.gen.xg.Proc;
import org.rx4j.gen.xg.XdrType;
import org.rx4j.gen.xg.XgException;
import org.rx4j.gen.xg.XgFile;

/** The .xg parser: what each construct becomes, and the messages for malformed or unsupported input. */
class ParserTest {

    private static XgFile kitchen() throws XgException {
        return Parser.parse("kitchen.xg", GeneratedCode.resource("xg/kitchen.xg"));
    }

    @Test
    void constantsEnumsAndTypedefs() throws XgException {
        XgFile f = kitchen();
        assertEquals(new Definition.Const("KS_MAXBLOB", 256, new org.rx4j.gen.xg.Pos("kitchen.xg", 14, 7)),
                f.definitions().stream().filter(d -> d.name().equals("KS_MAXBLOB")).findFirst().orElseThrow());
        Definition.Enum color = (Definition.Enum) f.type("ks_color");
        // A value without '=' follows the previous one, as in C.
        assertEquals(List.of(new Definition.EnumValue("KS_RED", 1), new Definition.EnumValue("KS_GREEN", 2),
                new Definition.EnumValue("KS_BLUE", 7)), color.values());
        Definition.Struct all = (Definition.Struct) f.type("ks_everything");
        // Typedefs are expanded where used; bounds keep the constant they were written with.
        assertEquals(new XdrType.CharArray(new Bound(64, "KS_MAXNAME")), member(all, "name").type());
        assertEquals(new XdrType.VarArray(new XdrType.Scalar(Prim.INT), new Bound(16, "KS_MAXLIST")),
                member(all, "ids").type());
        assertTrue(member(all, "free").type() instanceof XdrType.Str s && s.max().unbounded());
        assertEquals(new XdrType.OpaqueFixed(new Bound(6, null)), member(all, "fixed").type());
        assertEquals(new XdrType.FixedArray(new XdrType.Scalar(Prim.INT), new Bound(3, null)),
                member(all, "triple").type());
        assertInstanceOf(XdrType.Optional.class, member(all, "maybe").type());
        assertEquals(new XdrType.Scalar(Prim.USHORT), member(all, "u16").type());
        assertEquals(new XdrType.VarArray(new XdrType.CharArray(new Bound(64, "KS_MAXNAME")), new Bound(4, null)),
                member(all, "names").type());
    }

    private static Decl member(Definition.Struct s, String name) {
        return s.members().stream().filter(m -> m.name().equals(name)).findFirst().orElseThrow();
    }

    @Test
    void unionsKeepArmsAndDefault() throws XgException {
        Definition.Union shape = (Definition.Union) kitchen().type("ks_shape");
        assertEquals("kind", shape.discriminant().name());
        assertEquals(3, shape.arms().size());
        assertEquals(List.of(4), shape.arms().get(2).labels());
        assertNull(shape.arms().get(2).decl());
        assertEquals("label", shape.defaultArm().decl().name());
        Definition.Union inner = (Definition.Union) kitchen().type("ks_inner");
        assertEquals(List.of("KS_RED"), inner.arms().get(0).labelNames());
        assertEquals(List.of(1), inner.arms().get(0).labels());
        assertNull(inner.defaultArm());
    }

    @Test
    void procsWithDirectionsOpcodesSplitAndMulti() throws XgException {
        XgFile f = kitchen();
        assertEquals(List.of("KS_"), f.prefixes());
        assertEquals(17, f.statIndexes().get("KS_"));
        Proc echo = f.procs().get(0);
        assertEquals("KS_Echo", echo.fullName());
        assertEquals(1, echo.opcode());
        // A parameter without a keyword keeps the previous direction; '*' in a parameter is by-reference.
        assertEquals(List.of(Param.Direction.IN, Param.Direction.IN, Param.Direction.OUT, Param.Direction.OUT),
                echo.params().stream().map(Param::direction).toList());
        assertEquals(new XdrType.Scalar(Prim.INT), echo.params().get(2).decl().type());
        Proc shapes = f.procs().get(3);
        assertEquals(List.of("s", "inner"), shapes.inputs().stream().map(p -> p.decl().name()).toList());
        assertEquals(List.of("inner", "back"), shapes.outputs().stream().map(p -> p.decl().name()).toList());
        Proc sum = f.procs().get(4);
        assertTrue(sum.multi());
        Proc transfer = f.procs().get(6);
        assertEquals("Transfer", transfer.name());
        assertTrue(transfer.split());
        assertEquals(7, transfer.opcode());
        assertEquals(List.of(
                "kitchen.xg:6:1: note: pass-through line skipped (C only): %#include <rx/rx.h>",
                "kitchen.xg:9:8: note: prefix S names rxgen's C server functions; it has no effect on the Java names",
                "kitchen.xg:10:11: note: statindex 17 is recorded as a constant; rx4j keeps no per-opcode RPC statistics",
                "kitchen.xg:86:1: note: KS_Sum is marked multi: its multi-server (multi_Rx) variant is not generated;"
                        + " the ordinary client method is"), f.notes());
    }

    @Test
    void numbersAndConstantOpcodes() throws XgException {
        XgFile f = Parser.parse("n.xg", "const A = 0x10; const B = 010; const C = -3; const D = A;\n"
                + "package P_\nGet(IN int x<B>) = A;\nproc Put(OUT opaque o<>) = 4294967295;\n");
        assertEquals(List.of(16L, 8L, -3L, 16L), f.definitions().stream()
                .map(d -> ((Definition.Const) d).value()).toList());
        assertEquals(16, f.procs().get(0).opcode());
        assertEquals(-1, f.procs().get(1).opcode());
        assertEquals(new XdrType.VarArray(new XdrType.Scalar(Prim.INT), new Bound(8, "B")),
                f.procs().get(0).params().get(0).decl().type());
    }

    @Test
    void opcodesOutOfDeclarationOrderGetANote() throws XgException {
        XgFile f = Parser.parse("o.xg", "package P_\nA() = 2;\nB() = 1;\n");
        assertEquals(List.of("o.xg:3:7: note: opcode 1 follows 2: Debian's rxgen builds its C server's dispatch table"
                + " in declaration order, so declare procs in opcode order for C servers (rx-gen dispatches by"
                + " opcode either way)"), f.notes());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '"', textBlock = """
        struct a { int x }                                  | t.xg:1:18: expected ';', found '}'
        const X = ;                                         | t.xg:1:11: expected a number or constant, found ';'
        Foo(IN int a);                                      | t.xg:1:14: expected '=' and an opcode (rx-gen needs explicit opcodes), found ';'
        struct a { float f; };                              | t.xg:1:12: type 'float' is not supported (rx-core's XDR has no floating point)
        struct a { foo x; };                                | t.xg:1:12: unknown type 'foo'
        struct a { int x<N>; };                             | t.xg:1:18: unknown constant 'N'
        #define N 4                                         | t.xg:1:1: preprocessor directive '#define N 4' is not supported (rx-gen has no C preprocessor): use const declarations
        /* open                                             | t.xg:1:1: unterminated comment
        struct a { string s; };                             | t.xg:1:20: expected '<' (string needs a maximum: string s<N> or <>), found ';'
        A() = 1; B() = 1;                                   | t.xg:1:16: opcode 1 is already used by A
        A() = 1; A() = 2;                                   | t.xg:1:10: proc A is already defined at t.xg:1:1
        union u switch (int d) { case 1: int a; case 1: int b; }; | t.xg:1:46: case 1 appears twice in union u
        union u switch (hyper d) { case 1: int a; };        | t.xg:1:23: a union discriminant must be an int, unsigned, bool or enum
        struct s { int a; }; union u switch (s d) { case 1: int a; }; | t.xg:1:38: a union discriminant must be an int, unsigned, bool or enum, not s
        struct a { int x; } @                               | t.xg:1:21: unexpected character '@'
        struct a {                                          | t.xg:1:11: expected a type, found end of file
        program P { version V { int F(int) = 1; } = 1; } = 9; | t.xg:1:1: 'program' (ONC RPC program) is not part of rxgen's language
        A() = 0x1FFFFFFFF;                                  | t.xg:1:7: number 0x1FFFFFFFF does not fit in 32 bits
        struct a { int x; }; struct a { int y; };           | t.xg:1:29: 'a' is already defined
        struct a { void x; };                               | t.xg:1:12: 'void' is only allowed as a union arm
        struct a { opaque o; };                             | t.xg:1:20: expected '[' or '<' after opaque o, found ';'
        struct a { int *x[3]; };                            | t.xg:1:17: a pointer to an array ('*x[...]') is not XDR
        A(IN int *x, OUT int y) split multi = 1 ;           | ok
        A(IN struct p *x) = 1;                              | t.xg:1:13: unknown type 'p'
        """)
    void malformedInputIsLocatedAndNamed(String source, String message) {
        if (message.equals("ok")) {
            assertTrue(assertDoesNotThrow(source).procs().get(0).split());
            return;
        }
        XgException e = assertThrows(XgException.class, () -> Parser.parse("t.xg", source));
        assertEquals(message, e.getMessage());
    }

    private static XgFile assertDoesNotThrow(String source) {
        try {
            return Parser.parse("t.xg", source);
        } catch (XgException e) {
            throw new AssertionError(e.getMessage(), e);
        }
    }

    @Test
    void errorPositionsCountLinesAndColumns() {
        XgException e = assertThrows(XgException.class, () -> Parser.parse("dir/f.xg",
                "/* a\n comment */\nconst A = 1;\n%pass through\n\tstruct s {\n\t\tint a;\n\t\tbogus b;\n};\n"));
        assertEquals("dir/f.xg:7:3: unknown type 'bogus'", e.getMessage());
        assertEquals(7, e.pos().line());
    }
}
