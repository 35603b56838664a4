// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.gen.java;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.rx4j.gen.xg.Decl;
import org.rx4j.gen.xg.Definition;
import org.rx4j.gen.xg.XdrType;
import org.rx4j.gen.xg.XgException;

/** Generates the Java types of an {@code .xg} file's constants, enums, structs and unions. */
final class TypeGenerator {
    private final GenContext ctx;
    private final TypeMapper types;

    /**
     * @param ctx names and settings shared by the generators
     */
    TypeGenerator(GenContext ctx) {
        this.ctx = ctx;
        this.types = ctx.types();
    }

    /**
     * @param out class name to source, added to
     * @throws XgException for a name that cannot be mapped (two C names giving one Java class)
     */
    void generate(Map<String, String> out) throws XgException {
        List<Definition.Const> consts = new ArrayList<>();
        for (Definition d : ctx.file().definitions()) {
            if (d instanceof Definition.Const c) {
                consts.add(c);
            } else if (d instanceof Definition.Enum e) {
                ctx.put(out, Names.type(e.name()), enumeration(e), e.pos());
            } else if (d instanceof Definition.Struct s) {
                ctx.put(out, Names.type(s.name()), struct(s), s.pos());
            } else if (d instanceof Definition.Union u) {
                ctx.put(out, Names.type(u.name()), union(u), u.pos());
            }
        }
        if (!consts.isEmpty() || !ctx.file().statIndexes().isEmpty()) {
            ctx.put(out, ctx.constantsClass(), constants(consts), null);
        }
    }

    private String constants(List<Definition.Const> consts) {
        Src s = new Src();
        s.doc("The constants of " + ctx.fileName() + " ({@code const} declarations and {@code statindex}).");
        s.line("public final class " + ctx.constantsClass() + " {");
        for (Definition.Const c : consts) {
            s.doc("{@code const " + c.name() + " = " + c.value() + "} (" + ctx.where(c.pos()) + ").");
            s.line("public static final int " + c.name() + " = " + intLiteral(c.value()) + ";");
            s.line("");
        }
        for (Map.Entry<String, Integer> e : ctx.file().statIndexes().entrySet()) {
            String name = "STAT_INDEX" + (e.getKey().isEmpty() ? "" : "_" + e.getKey().replaceAll("_+$", ""));
            s.doc("{@code statindex} of package " + (e.getKey().isEmpty() ? "(none)" : e.getKey())
                    + ": rxgen's RPC statistics index (not used by rx4j).");
            s.line("public static final int " + name + " = " + e.getValue() + ";");
            s.line("");
        }
        s.line("private " + ctx.constantsClass() + "() {");
        s.line("}");
        s.line("}");
        return s.toString();
    }

    static String intLiteral(long v) {
        if (v > Integer.MAX_VALUE) {
            return String.format("0x%08X", v);
        }
        return Long.toString(v);
    }

    private String enumeration(Definition.Enum e) {
        String cls = Names.type(e.name());
        Src s = new Src();
        s.doc("XDR {@code enum " + e.name() + "} (" + ctx.where(e.pos()) + "): a 4-byte int on the wire. Decoding a",
                "value not listed here fails the call with the reader's unmarshal code (−451 client, −453 server).");
        s.line("public enum " + cls + " {");
        for (int i = 0; i < e.values().size(); i++) {
            Definition.EnumValue v = e.values().get(i);
            s.doc("{@code " + v.name() + " = " + v.value() + "}.");
            s.line(v.name() + "(" + v.value() + ")" + (i == e.values().size() - 1 ? ";" : ","));
        }
        s.line("");
        s.doc("Encodes and decodes {@link " + cls + "} (for arrays and optional data).");
        s.line("public static final XdrCodec<" + cls + "> CODEC = XdrCodec.of(" + cls + "::encode, " + cls
                + "::decode);");
        s.line("");
        s.line("private final int value;");
        s.line("");
        s.line(cls + "(int value) {");
        s.line("this.value = value;");
        s.line("}");
        s.line("");
        s.doc("@return the value on the wire");
        s.line("public int value() {");
        s.line("return value;");
        s.line("}");
        s.line("");
        s.doc("@param value a value on the wire", "@return the constant with that value, or null if there is none");
        s.line("public static " + cls + " fromValue(int value) {");
        s.line("for (" + cls + " c : values()) {");
        s.line("if (c.value == value) {");
        s.line("return c;");
        s.line("}");
        s.line("}");
        s.line("return null;");
        s.line("}");
        s.line("");
        s.doc("Writes one value.", "", "@param writer the destination", "@param value the value, not null",
                "@throws IOException an RxException with the marshal code for null, or a stream failure");
        s.line("public static void encode(XdrWriter writer, " + cls + " value) throws IOException {");
        s.line("if (value == null) {");
        s.line("throw writer.marshalError(\"null " + e.name() + "\");");
        s.line("}");
        s.line("writer.writeInt(value.value);");
        s.line("}");
        s.line("");
        s.doc("Reads one value.", "", "@param reader the source", "@return the constant",
                "@throws IOException an RxException with the unmarshal code for an unlisted value, or a stream failure");
        s.line("public static " + cls + " decode(XdrReader reader) throws IOException {");
        s.line("int value = reader.readInt();");
        s.line(cls + " c = fromValue(value);");
        s.line("if (c == null) {");
        s.line("throw reader.unmarshalError(\"enum " + e.name() + " has no value \" + value);");
        s.line("}");
        s.line("return c;");
        s.line("}");
        s.line("}");
        return s.toString();
    }

    private String struct(Definition.Struct st) {
        String cls = Names.type(st.name());
        Src s = new Src();
        List<String> doc = new ArrayList<>();
        doc.add("XDR {@code struct " + st.name() + "} (" + ctx.where(st.pos()) + "); members in wire order.");
        doc.add("");
        for (Decl m : st.members()) {
            doc.add("@param " + Names.member(m.name()) + " {@code " + Names.quote(types.describe(m.type())) + "}");
        }
        s.doc(doc.toArray(String[]::new));
        List<String> comps = new ArrayList<>();
        for (Decl m : st.members()) {
            comps.add(types.javaType(m.type(), m.type() instanceof XdrType.Optional) + " " + Names.member(m.name()));
        }
        s.list("public record " + cls, comps, " {");
        codecMembers(s, cls, st.name());
        s.doc("Writes one value, members in order.", "", "@param writer the destination",
                "@param value the value, not null",
                "@throws IOException an RxException with the marshal code for null or a member out of its bounds,",
                "    or a stream failure");
        s.line("public static void encode(XdrWriter writer, " + cls + " value) throws IOException {");
        s.line("if (value == null) {");
        s.line("throw writer.marshalError(\"null " + st.name() + "\");");
        s.line("}");
        for (Decl m : st.members()) {
            s.line(types.encode(m.type(), "writer", "value." + Names.member(m.name()) + "()") + ";");
        }
        s.line("}");
        s.line("");
        s.doc("Reads one value; every length is checked against its bound before anything is allocated.", "",
                "@param reader the source", "@return the value",
                "@throws IOException an RxException with the unmarshal code for bad or hostile bytes, or a stream failure");
        s.line("public static " + cls + " decode(XdrReader reader) throws IOException {");
        s.line("return new " + cls + "(");
        for (int i = 0; i < st.members().size(); i++) {
            Decl m = st.members().get(i);
            s.line("        " + types.decode(m.type(), "reader") + (i == st.members().size() - 1 ? ");" : ","));
        }
        s.line("}");
        arrayAwareObjectMethods(s, cls, st.members());
        s.line("}");
        return s.toString();
    }

    private void codecMembers(Src s, String cls, String cName) {
        s.doc("Encodes and decodes {@link " + cls + "} (for arrays and optional data).");
        s.line("public static final XdrCodec<" + cls + "> CODEC = XdrCodec.of(" + cls + "::encode, " + cls
                + "::decode);");
        s.line("");
    }

    /** Records compare arrays by identity: where a member is a byte[], compare and print contents instead. */
    private void arrayAwareObjectMethods(Src s, String cls, List<Decl> members) {
        if (members.stream().noneMatch(m -> TypeMapper.isByteArray(m.type()))) {
            return;
        }
        List<String> eq = new ArrayList<>();
        List<String> hash = new ArrayList<>();
        List<String> str = new ArrayList<>();
        for (Decl m : members) {
            String n = Names.member(m.name());
            boolean arr = TypeMapper.isByteArray(m.type());
            boolean prim = !arr && !types.javaType(m.type(), false).equals(types.javaType(m.type(), true))
                    && !(m.type() instanceof XdrType.Optional);
            eq.add(arr ? "Arrays.equals(" + n + ", o." + n + ")"
                    : prim ? n + " == o." + n : "Objects.equals(" + n + ", o." + n + ")");
            hash.add(arr ? "Arrays.hashCode(" + n + ")" : "Objects.hashCode(" + n + ")");
            str.add("\"" + n + "=\" + " + (arr ? "Arrays.toString(" + n + ")" : n));
        }
        s.line("");
        s.doc("Compares byte arrays by content.");
        s.line("@Override");
        s.line("public boolean equals(Object other) {");
        s.line("return other instanceof " + cls + " o");
        for (int i = 0; i < eq.size(); i++) {
            s.line("        && " + eq.get(i) + (i == eq.size() - 1 ? ";" : ""));
        }
        s.line("}");
        s.line("");
        s.doc("Hashes byte arrays by content.");
        s.line("@Override");
        s.line("public int hashCode() {");
        s.line("int h = 0;");
        for (String h : hash) {
            s.line("h = 31 * h + " + h + ";");
        }
        s.line("return h;");
        s.line("}");
        s.line("");
        s.doc("Prints byte arrays by content.");
        s.line("@Override");
        s.line("public String toString() {");
        s.line("return \"" + cls + "[\" + " + String.join(" + \", \" + ", str) + " + \"]\";");
        s.line("}");
    }

    private String union(Definition.Union u) throws XgException {
        String cls = Names.type(u.name());
        String discName = Names.member(u.discriminant().name());
        Map<Definition.Arm, String> armNames = armNames(u, cls);
        Src s = new Src();
        s.doc("XDR {@code union " + u.name() + " switch (" + types.describe(u.discriminant().type()) + " "
                        + u.discriminant().name() + ")} (" + ctx.where(u.pos()) + "): one record per arm.",
                "On the wire: the discriminant (a 4-byte int), then the arm's value. "
                        + (u.defaultArm() == null ? "A discriminant with no arm fails decoding with the unmarshal code."
                                : "Unlisted discriminants take the default arm."));
        List<String> permits = new ArrayList<>();
        for (String n : armNames.values()) {
            permits.add(cls + "." + n);
        }
        s.line("public sealed interface " + cls + " permits " + String.join(", ", permits) + " {");
        s.doc("Encodes and decodes {@link " + cls + "} (for arrays and optional data).");
        s.line("XdrCodec<" + cls + "> CODEC = XdrCodec.of(" + cls + "::encode, " + cls + "::decode);");
        s.line("");
        if (u.discriminant().type() instanceof XdrType.Named e) {
            // An int, not the enum: as in rxgen's C, a default arm takes any value, listed by the enum or not.
            String enumClass = types.javaType(e, false);
            s.doc("@return the discriminant on the wire ({@code " + u.discriminant().name() + "}, a {@code "
                    + e.name() + "}: {@link " + enumClass + "#fromValue} names it"
                    + (u.defaultArm() == null ? ")" : "; the default arm may carry a value the enum does not list)"));
        } else {
            s.doc("@return the discriminant on the wire ({@code " + u.discriminant().name() + "})");
        }
        s.line("int " + discName + "();");
        List<Definition.Arm> all = new ArrayList<>(u.arms());
        if (u.defaultArm() != null) {
            all.add(u.defaultArm());
        }
        Set<Integer> listed = new java.util.TreeSet<>();
        u.arms().forEach(a -> listed.addAll(a.labels()));
        for (Definition.Arm arm : all) {
            String an = armNames.get(arm);
            boolean fixed = arm.labels().size() == 1;
            List<String> comps = new ArrayList<>();
            List<String> doc = new ArrayList<>();
            String labelsText = arm.labels().isEmpty() ? "default" : "case " + String.join(", case ", arm.labelNames());
            doc.add("Arm {@code " + labelsText + "} of {@code " + u.name() + "}"
                    + (arm.decl() == null ? " (void)." : "."));
            doc.add("");
            if (!fixed) {
                comps.add("int " + discName);
                doc.add("@param " + discName + " the discriminant: "
                        + (arm.labels().isEmpty() ? "any value not listed by another arm" : "one of " + arm.labels()));
            }
            if (arm.decl() != null) {
                String vn = valueName(arm.decl(), discName);
                comps.add(types.javaType(arm.decl().type(), arm.decl().type() instanceof XdrType.Optional) + " " + vn);
                doc.add("@param " + vn + " {@code " + Names.quote(types.describe(arm.decl().type())) + "}");
            }
            s.line("");
            s.doc(doc.toArray(String[]::new));
            s.list("record " + an, comps, " implements " + cls + " {");
            if (fixed) {
                s.doc("@return " + arm.labelNames().get(0));
                s.line("@Override");
                s.line("public int " + discName + "() {");
                s.line("return " + arm.labels().get(0) + ";");
                s.line("}");
            } else {
                s.doc("@throws IllegalArgumentException if the discriminant does not belong to this arm");
                s.line("public " + an + " {");
                if (arm.labels().isEmpty()) {
                    if (!listed.isEmpty()) {
                        s.line("if (" + membership(discName, listed) + ") {");
                        s.line("throw new IllegalArgumentException(\"" + u.name() + ": " + discName
                                + " \" + " + discName + " + \" belongs to another arm\");");
                        s.line("}");
                    }
                } else {
                    s.line("if (!(" + membership(discName, new java.util.TreeSet<>(arm.labels())) + ")) {");
                    s.line("throw new IllegalArgumentException(\"" + u.name() + ": " + discName + " \" + "
                            + discName + " + \" is not one of " + arm.labels() + "\");");
                    s.line("}");
                }
                s.line("}");
            }
            if (arm.decl() != null && TypeMapper.isByteArray(arm.decl().type())) {
                List<Decl> members = new ArrayList<>();
                if (!fixed) {
                    members.add(new Decl(discName, new XdrType.Scalar(org.rx4j.gen.xg.Prim.INT), arm.pos()));
                }
                members.add(new Decl(valueName(arm.decl(), discName), arm.decl().type(), arm.pos()));
                arrayAwareObjectMethods(s, an, members);
            }
            s.line("}");
        }
        s.line("");
        s.doc("Writes one value: the discriminant, then the arm.", "", "@param writer the destination",
                "@param value the value, not null",
                "@throws IOException an RxException with the marshal code for null or a member out of its bounds,",
                "    or a stream failure");
        s.line("static void encode(XdrWriter writer, " + cls + " value) throws IOException {");
        s.line("if (value == null) {");
        s.line("throw writer.marshalError(\"null " + u.name() + "\");");
        s.line("}");
        s.line("writer.writeInt(value." + discName + "());");
        boolean first = true;
        for (Definition.Arm arm : all) {
            if (arm.decl() == null) {
                continue;
            }
            String an = armNames.get(arm);
            s.line((first ? "if" : "} else if") + " (value instanceof " + an + " arm) {");
            s.line(types.encode(arm.decl().type(), "writer", "arm." + valueName(arm.decl(), discName) + "()") + ";");
            first = false;
        }
        if (!first) {
            s.line("}");
        }
        s.line("}");
        s.line("");
        s.doc("Reads one value; every length is checked against its bound before anything is allocated.", "",
                "@param reader the source", "@return the arm's record",
                "@throws IOException an RxException with the unmarshal code for bad or hostile bytes (including a",
                "    discriminant with no arm), or a stream failure");
        s.line("static " + cls + " decode(XdrReader reader) throws IOException {");
        s.line("int discriminant = reader.readInt();");
        s.line("return switch (discriminant) {");
        for (Definition.Arm arm : u.arms()) {
            List<String> labels = arm.labels().stream().map(String::valueOf).toList();
            s.line("case " + String.join(", ", labels) + " -> " + construct(armNames.get(arm), arm,
                    arm.labels().size() != 1, discName) + ";");
        }
        if (u.defaultArm() != null) {
            s.line("default -> " + construct(armNames.get(u.defaultArm()), u.defaultArm(), true, discName) + ";");
        } else {
            s.line("default -> throw reader.unmarshalError(\"union " + u.name() + " has no arm for "
                    + u.discriminant().name() + " \" + discriminant);");
        }
        s.line("};");
        s.line("}");
        s.line("}");
        return s.toString();
    }

    private String construct(String armName, Definition.Arm arm, boolean withDisc, String discName) {
        List<String> args = new ArrayList<>();
        if (withDisc) {
            args.add("discriminant");
        }
        if (arm.decl() != null) {
            args.add(types.decode(arm.decl().type(), "reader"));
        }
        return "new " + armName + "(" + String.join(", ", args) + ")";
    }

    private static String membership(String var, Set<Integer> values) {
        List<String> parts = new ArrayList<>();
        for (int v : values) {
            parts.add(var + " == " + v);
        }
        return String.join(" || ", parts);
    }

    private static String valueName(Decl d, String discName) {
        String n = Names.member(d.name());
        return n.equals(discName) ? n + "Value" : n;
    }

    private static Map<Definition.Arm, String> armNames(Definition.Union u, String cls) {
        Map<Definition.Arm, String> names = new LinkedHashMap<>();
        List<Definition.Arm> all = new ArrayList<>(u.arms());
        if (u.defaultArm() != null) {
            all.add(u.defaultArm());
        }
        for (Definition.Arm arm : all) {
            String base;
            if (arm.decl() != null) {
                base = Names.type(arm.decl().name());
            } else if (arm.labels().isEmpty()) {
                base = "Default";
            } else {
                String l = arm.labelNames().get(0);
                base = Character.isLetter(l.charAt(0)) ? Names.type(l) : "Case" + l.replace("-", "Minus");
            }
            String n = base;
            for (int i = 2; n.equals(cls) || names.containsValue(n); i++) {
                n = base + i;
            }
            names.put(arm, n);
        }
        return names;
    }
}
