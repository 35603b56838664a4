// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.gen.xg;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A recursive-descent parser for rxgen's interface language ({@code .xg}): XDR definitions (RFC 4506 §6:
 * const, enum, struct, union, typedef) plus rxgen's {@code package}, {@code prefix}, {@code statindex} and
 * {@code proc} declarations. Names must be defined before use, as in the C rxgen emits (a struct may point to
 * itself or to a later struct through {@code *}: those are checked after the whole file).
 *
 * <p>Errors are {@link XgException}s {@code file:line:column: expected X, found Y}; a construct rx-gen
 * cannot generate (e.g. {@code float}) is an error naming it.
 */
public final class Parser {
    private static final Map<String, Prim> SCALARS = Map.ofEntries(
            Map.entry("int", Prim.INT), Map.entry("afs_int32", Prim.INT), Map.entry("int32", Prim.INT),
            Map.entry("long", Prim.INT), Map.entry("signed", Prim.INT),
            Map.entry("afs_uint32", Prim.UINT), Map.entry("uint32", Prim.UINT), Map.entry("u_int", Prim.UINT),
            Map.entry("u_long", Prim.UINT),
            Map.entry("hyper", Prim.HYPER), Map.entry("afs_int64", Prim.HYPER), Map.entry("int64", Prim.HYPER),
            Map.entry("afs_uint64", Prim.UHYPER), Map.entry("uint64", Prim.UHYPER),
            Map.entry("short", Prim.SHORT), Map.entry("afs_int16", Prim.SHORT), Map.entry("int16", Prim.SHORT),
            Map.entry("afs_uint16", Prim.USHORT), Map.entry("u_short", Prim.USHORT),
            Map.entry("uint16", Prim.USHORT),
            Map.entry("char", Prim.CHAR), Map.entry("afs_int8", Prim.CHAR), Map.entry("int8", Prim.CHAR),
            Map.entry("u_char", Prim.UCHAR), Map.entry("afs_uint8", Prim.UCHAR), Map.entry("uint8", Prim.UCHAR),
            Map.entry("afs_byte", Prim.UCHAR), Map.entry("byte", Prim.UCHAR),
            Map.entry("bool", Prim.BOOL), Map.entry("bool_t", Prim.BOOL));
    private static final String AFS_UUID = "afsUUID";
    private static final Set<String> UNSUPPORTED = Set.of("float", "double", "quadruple");

    private final List<Token> tokens;
    private final List<String> notes;
    private final String file;
    private int at;

    private final List<Definition> definitions = new ArrayList<>();
    private final List<Proc> procs = new ArrayList<>();
    private final List<String> prefixes = new ArrayList<>();
    private final Map<String, Integer> statIndexes = new LinkedHashMap<>();
    private final Map<String, Long> constants = new HashMap<>();
    private final Map<String, XdrType> typedefs = new HashMap<>();
    private final Map<String, Pos> typeNames = new HashMap<>();
    private final List<XdrType.Named> references = new ArrayList<>();
    private String prefix = "";

    private Parser(String file, List<Token> tokens, List<String> notes) {
        this.file = file;
        this.tokens = tokens;
        this.notes = new ArrayList<>(notes);
    }

    /**
     * Parses a whole file.
     *
     * @param file the file name for messages
     * @param source the file's text
     * @return the parsed file
     * @throws XgException for malformed input, an unknown name, or an unsupported construct
     */
    public static XgFile parse(String file, String source) throws XgException {
        Lexer lexer = new Lexer(file, source);
        List<Token> tokens = lexer.tokens();
        return new Parser(file, tokens, lexer.notes()).file();
    }

    private XgFile file() throws XgException {
        while (peek().kind() != Token.Kind.EOF) {
            definition();
        }
        for (XdrType.Named ref : references) {
            if (ref.name().equals(AFS_UUID) && !typeNames.containsKey(AFS_UUID)) {
                definitions.add(0, afsUuid(ref.pos()));
                typeNames.put(AFS_UUID, ref.pos());
                notes.add(ref.pos() + ": note: afsUUID is rxgen's built-in type: generated as a struct of "
                        + "time_low, time_mid, time_hi_and_version, clock_seq_hi_and_reserved, clock_seq_low, node[6]");
            }
            if (!typeNames.containsKey(ref.name())) {
                throw new XgException(ref.pos(), "unknown type '" + ref.name() + "'");
            }
        }
        for (Definition d : definitions) {
            if (d instanceof Definition.Union u && u.discriminant().type() instanceof XdrType.Named n
                    && !(definitions.stream().anyMatch(e -> e instanceof Definition.Enum
                            && e.name().equals(n.name())))) {
                throw new XgException(n.pos(), "a union discriminant must be an int, unsigned, bool or enum, "
                        + "not " + n.name());
            }
        }
        for (Proc p : procs) {
            for (Param q : p.params()) {
                checkProcType(q.decl());
            }
        }
        return new XgFile(file, List.copyOf(definitions), List.copyOf(procs), List.copyOf(prefixes),
                Map.copyOf(statIndexes), List.copyOf(notes));
    }

    /**
     * rxgen knows {@code afsUUID} without a definition (its C type is in OpenAFS's stds.h): 11 XDR ints on the
     * wire -- time_low (unsigned), time_mid and time_hi_and_version (unsigned short), two chars, and node as
     * six chars.
     */
    private static Definition.Struct afsUuid(Pos pos) {
        Bound six = new Bound(6, null);
        return new Definition.Struct(AFS_UUID, List.of(
                new Decl("time_low", new XdrType.Scalar(Prim.UINT), pos),
                new Decl("time_mid", new XdrType.Scalar(Prim.USHORT), pos),
                new Decl("time_hi_and_version", new XdrType.Scalar(Prim.USHORT), pos),
                new Decl("clock_seq_hi_and_reserved", new XdrType.Scalar(Prim.CHAR), pos),
                new Decl("clock_seq_low", new XdrType.Scalar(Prim.CHAR), pos),
                new Decl("node", new XdrType.FixedArray(new XdrType.Scalar(Prim.UCHAR), six), pos)), pos);
    }

    private void checkProcType(Decl d) throws XgException {
        if (d.type() instanceof XdrType.Optional) {
            throw new XgException(d.pos(), "optional data ('*') as a proc parameter is not supported: "
                    + "wrap it in a struct");
        }
    }

    private void definition() throws XgException {
        Token t = peek();
        switch (t.text()) {
            case "const" -> constant();
            case "enum" -> enumeration();
            case "struct" -> struct();
            case "union" -> union();
            case "typedef" -> typedef();
            case "package" -> {
                next();
                prefix = ident("a package prefix").text();
                optional(";");
            }
            case "prefix" -> {
                next();
                Token p = ident("a server prefix");
                optional(";");
                notes.add(p.pos() + ": note: prefix " + p.text() + " names rxgen's C server functions;"
                        + " it has no effect on the Java names");
            }
            case "statindex" -> {
                next();
                Token n = peek();
                statIndexes.put(prefix, (int) value("a statistics index"));
                optional(";");
                notes.add(n.pos() + ": note: statindex " + statIndexes.get(prefix)
                        + " is recorded as a constant; rx4j keeps no per-opcode RPC statistics");
            }
            case "program", "version" -> throw new XgException(t.pos(), "'" + t.text()
                    + "' (ONC RPC program) is not part of rxgen's language");
            default -> {
                if (t.kind() == Token.Kind.IDENT) {
                    proc();
                } else {
                    throw expected("a definition (const, enum, struct, union, typedef, package, proc)");
                }
            }
        }
    }

    private void constant() throws XgException {
        next();
        Token name = ident("a constant name");
        expect("=");
        long v = value("a number or constant");
        expect(";");
        define(name);
        constants.put(name.text(), v);
        definitions.add(new Definition.Const(name.text(), v, name.pos()));
    }

    private void enumeration() throws XgException {
        next();
        Token name = ident("an enum name");
        expect("{");
        List<Definition.EnumValue> values = new ArrayList<>();
        long next = 0;
        do {
            Token v = ident("an enum constant");
            if (optional("=")) {
                next = value("a number or constant");
            }
            define(v);
            constants.put(v.text(), next);
            values.add(new Definition.EnumValue(v.text(), (int) next));
            next++;
        } while (optional(","));
        expect("}");
        expect(";");
        defineType(name);
        definitions.add(new Definition.Enum(name.text(), List.copyOf(values), name.pos()));
    }

    private void struct() throws XgException {
        next();
        Token name = ident("a struct name");
        defineType(name);
        expect("{");
        List<Decl> members = new ArrayList<>();
        do {
            members.add(declaration(false));
            expect(";");
        } while (!peek().is("}"));
        expect("}");
        expect(";");
        definitions.add(new Definition.Struct(name.text(), List.copyOf(members), name.pos()));
    }

    private void union() throws XgException {
        next();
        Token name = ident("a union name");
        defineType(name);
        expect("switch");
        expect("(");
        Decl disc = declaration(false);
        if (!(disc.type() instanceof XdrType.Scalar s && s.prim() != Prim.HYPER && s.prim() != Prim.UHYPER)
                && !(disc.type() instanceof XdrType.Named)) {
            throw new XgException(disc.pos(), "a union discriminant must be an int, unsigned, bool or enum");
        }
        expect(")");
        expect("{");
        List<Definition.Arm> arms = new ArrayList<>();
        Definition.Arm defaultArm = null;
        while (!peek().is("}")) {
            Pos armPos = peek().pos();
            if (optional("default")) {
                if (defaultArm != null) {
                    throw new XgException(armPos, "second default arm in union " + name.text());
                }
                expect(":");
                defaultArm = new Definition.Arm(List.of(), List.of(), armDecl(), armPos);
                expect(";");
                continue;
            }
            List<Integer> labels = new ArrayList<>();
            List<String> labelNames = new ArrayList<>();
            do {
                expect("case");
                Token l = peek();
                int label = (int) value("a case value");
                for (Definition.Arm a : arms) {
                    if (a.labels().contains(label)) {
                        throw new XgException(l.pos(), "case " + l.text() + " appears twice in union " + name.text());
                    }
                }
                if (labels.contains(label)) {
                    throw new XgException(l.pos(), "case " + l.text() + " appears twice in union " + name.text());
                }
                labels.add(label);
                labelNames.add(l.text());
                expect(":");
            } while (peek().is("case"));
            arms.add(new Definition.Arm(List.copyOf(labels), List.copyOf(labelNames), armDecl(), armPos));
            expect(";");
        }
        if (arms.isEmpty()) {
            throw expected("'case'");
        }
        expect("}");
        expect(";");
        definitions.add(new Definition.Union(name.text(), disc, List.copyOf(arms), defaultArm, name.pos()));
    }

    private Decl armDecl() throws XgException {
        if (optional("void")) {
            return null;
        }
        return declaration(false);
    }

    private void typedef() throws XgException {
        next();
        Decl d = declaration(false);
        expect(";");
        Token name = new Token(Token.Kind.IDENT, d.name(), d.pos());
        define(name);
        typedefs.put(d.name(), d.type());
        definitions.add(new Definition.Typedef(d));
    }

    private void proc() throws XgException {
        optional("proc");
        Token name = ident("a proc name");
        expect("(");
        List<Param> params = new ArrayList<>();
        Param.Direction dir = Param.Direction.IN;
        if (!peek().is(")")) {
            do {
                if (optional("IN")) {
                    dir = Param.Direction.IN;
                } else if (optional("OUT")) {
                    dir = Param.Direction.OUT;
                } else if (optional("INOUT")) {
                    dir = Param.Direction.INOUT;
                }
                params.add(new Param(dir, declaration(true)));
            } while (optional(","));
        }
        expect(")");
        boolean split = false;
        boolean multi = false;
        while (peek().is("split") || peek().is("multi")) {
            if (next().text().equals("split")) {
                split = true;
            } else {
                multi = true;
            }
        }
        if (!peek().is("=")) {
            throw expected("'=' and an opcode (rx-gen needs explicit opcodes)");
        }
        next();
        Token op = peek();
        long opcode = value("an opcode");
        if (opcode < Integer.MIN_VALUE || opcode > 0xFFFF_FFFFL) {
            throw new XgException(op.pos(), "opcode " + opcode + " does not fit in 32 bits");
        }
        expect(";");
        for (Proc p : procs) {
            if (p.prefix().equals(prefix) && p.name().equals(name.text())) {
                throw new XgException(name.pos(), "proc " + prefix + name.text() + " is already defined at "
                        + p.pos());
            }
            if (p.prefix().equals(prefix) && p.opcode() == (int) opcode) {
                throw new XgException(op.pos(), "opcode " + opcode + " is already used by " + p.fullName());
            }
        }
        Proc last = procs.isEmpty() ? null : procs.get(procs.size() - 1);
        if (last != null && last.prefix().equals(prefix) && last.opcode() > opcode) {
            notes.add(op.pos() + ": note: opcode " + opcode + " follows " + last.opcode() + ": Debian's rxgen "
                    + "builds its C server's dispatch table in declaration order, so declare procs in opcode order"
                    + " for C servers (rx-gen dispatches by opcode either way)");
        }
        if (multi) {
            notes.add(name.pos() + ": note: " + prefix + name.text() + " is marked multi: its multi-server "
                    + "(multi_Rx) variant is not generated; the ordinary client method is");
        }
        if (!prefixes.contains(prefix)) {
            prefixes.add(prefix);
        }
        procs.add(new Proc(name.text(), prefix, List.copyOf(params), split, multi, (int) opcode, name.pos()));
    }

    /**
     * declaration := 'opaque' name ('[' n ']' | '<' n? '>') | 'string' name '<' n? '>'
     *              | type '*'? name ('[' n ']' | '<' n? '>')?
     */
    private Decl declaration(boolean param) throws XgException {
        Token first = peek();
        if (first.is("opaque")) {
            next();
            Token name = ident("a name");
            if (optional("[")) {
                Bound n = bound();
                expect("]");
                return new Decl(name.text(), new XdrType.OpaqueFixed(n), name.pos());
            }
            if (peek().is("<")) {
                return new Decl(name.text(), new XdrType.OpaqueVar(angleBound()), name.pos());
            }
            throw expected("'[' or '<' after opaque " + name.text());
        }
        if (first.is("string")) {
            next();
            optional("*");
            Token name = ident("a name");
            if (!peek().is("<")) {
                throw expected("'<' (string needs a maximum: string " + name.text() + "<N> or <>)");
            }
            return new Decl(name.text(), new XdrType.Str(angleBound()), name.pos());
        }
        XdrType base = typeSpecifier();
        boolean pointer = optional("*");
        Token name = ident("a name");
        XdrType type = base;
        if (optional("[")) {
            Bound n = bound();
            expect("]");
            type = base instanceof XdrType.Scalar s && s.prim() == Prim.CHAR
                    ? new XdrType.CharArray(n) : new XdrType.FixedArray(base, n);
        } else if (peek().is("<")) {
            type = new XdrType.VarArray(base, angleBound());
        }
        if (pointer && !param) {
            if (type != base) {
                throw new XgException(name.pos(), "a pointer to an array ('*" + name.text() + "[...]') "
                        + "is not XDR");
            }
            type = new XdrType.Optional(base);
        }
        return new Decl(name.text(), type, name.pos());
    }

    private XdrType typeSpecifier() throws XgException {
        Token t = peek();
        if (t.kind() != Token.Kind.IDENT) {
            throw expected("a type");
        }
        next();
        switch (t.text()) {
            case "struct", "union", "enum" -> {
                Token name = ident("a " + t.text() + " name");
                return named(name);
            }
            case "unsigned" -> {
                Token n = peek();
                String what = n.kind() == Token.Kind.IDENT ? n.text() : "";
                switch (what) {
                    case "int", "long" -> {
                        next();
                        return new XdrType.Scalar(Prim.UINT);
                    }
                    case "hyper" -> {
                        next();
                        return new XdrType.Scalar(Prim.UHYPER);
                    }
                    case "short" -> {
                        next();
                        return new XdrType.Scalar(Prim.USHORT);
                    }
                    case "char" -> {
                        next();
                        return new XdrType.Scalar(Prim.UCHAR);
                    }
                    default -> {
                        return new XdrType.Scalar(Prim.UINT);
                    }
                }
            }
            case "void" -> throw new XgException(t.pos(), "'void' is only allowed as a union arm");
            default -> {
                if (UNSUPPORTED.contains(t.text())) {
                    throw new XgException(t.pos(), "type '" + t.text() + "' is not supported "
                            + "(rx-core's XDR has no floating point)");
                }
                Prim p = SCALARS.get(t.text());
                if (p != null) {
                    return new XdrType.Scalar(p);
                }
                XdrType alias = typedefs.get(t.text());
                if (alias != null) {
                    return alias;
                }
                if (constants.containsKey(t.text())) {
                    throw new XgException(t.pos(), "expected a type, found constant '" + t.text() + "'");
                }
                return named(t);
            }
        }
    }

    private XdrType named(Token name) throws XgException {
        XdrType alias = typedefs.get(name.text());
        if (alias != null) {
            return alias;
        }
        XdrType.Named n = new XdrType.Named(name.text(), name.pos());
        references.add(n);
        return n;
    }

    private Bound angleBound() throws XgException {
        expect("<");
        if (optional(">")) {
            return new Bound(Bound.UNBOUNDED, null);
        }
        Bound b = bound();
        expect(">");
        return b;
    }

    private Bound bound() throws XgException {
        Token t = peek();
        long v = value("a size (number or constant)");
        if (v < 0 || v > Bound.UNBOUNDED) {
            throw new XgException(t.pos(), "size " + v + " is out of range 0.." + Bound.UNBOUNDED);
        }
        return new Bound(v, t.kind() == Token.Kind.IDENT ? t.text() : null);
    }

    private long value(String what) throws XgException {
        Token t = peek();
        if (t.kind() == Token.Kind.NUMBER) {
            next();
            return number(t);
        }
        if (t.kind() == Token.Kind.IDENT) {
            Long v = constants.get(t.text());
            if (v == null) {
                throw new XgException(t.pos(), "unknown constant '" + t.text() + "'");
            }
            next();
            return v;
        }
        throw expected(what);
    }

    private static long number(Token t) throws XgException {
        String s = t.text();
        boolean negative = s.startsWith("-");
        String digits = negative ? s.substring(1) : s;
        try {
            long v;
            if (digits.startsWith("0x") || digits.startsWith("0X")) {
                v = Long.parseLong(digits.substring(2), 16);
            } else if (digits.length() > 1 && digits.startsWith("0")) {
                v = Long.parseLong(digits.substring(1), 8);
            } else {
                v = Long.parseLong(digits);
            }
            v = negative ? -v : v;
            if (v < Integer.MIN_VALUE || v > 0xFFFF_FFFFL) {
                throw new XgException(t.pos(), "number " + s + " does not fit in 32 bits");
            }
            return v;
        } catch (NumberFormatException e) {
            throw new XgException(t.pos(), "malformed number '" + s + "'");
        }
    }

    private void define(Token name) throws XgException {
        if (constants.containsKey(name.text()) || typedefs.containsKey(name.text())
                || typeNames.containsKey(name.text())) {
            throw new XgException(name.pos(), "'" + name.text() + "' is already defined");
        }
    }

    private void defineType(Token name) throws XgException {
        define(name);
        typeNames.put(name.text(), name.pos());
    }

    private Token ident(String what) throws XgException {
        Token t = peek();
        if (t.kind() != Token.Kind.IDENT) {
            throw expected(what);
        }
        return next();
    }

    private void expect(String s) throws XgException {
        if (!peek().is(s)) {
            throw expected("'" + s + "'");
        }
        next();
    }

    private boolean optional(String s) {
        if (peek().is(s)) {
            next();
            return true;
        }
        return false;
    }

    private XgException expected(String what) {
        Token t = peek();
        return new XgException(t.pos(), "expected " + what + ", found " + t.describe());
    }

    private Token peek() {
        return tokens.get(at);
    }

    private Token next() {
        Token t = tokens.get(at);
        if (t.kind() != Token.Kind.EOF) {
            at++;
        }
        return t;
    }
}
