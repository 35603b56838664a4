// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.gen.java;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.rx4j.gen.xg.Param;
import org.rx4j.gen.xg.Proc;

/**
 * What the generators of a package's procs share: the Java signature of a proc (its parameters, its result type,
 * the record of several OUT parameters) and the Javadoc lines that describe them.
 */
abstract class ProcGenerator {
    final GenContext ctx;
    final TypeMapper types;

    /** @param ctx names and settings shared by the generators */
    ProcGenerator(GenContext ctx) {
        this.ctx = ctx;
        this.types = ctx.types();
    }

    static String resultClass(String pb, Proc p) {
        return pb + Names.type(p.name()) + "Result";
    }

    String packageText(String prefix) {
        return prefix.isEmpty() ? "of " + ctx.fileName() : "{@code " + prefix + "} of " + ctx.fileName();
    }

    /** The Java type of a proc's results: void/Void, the single output's type, or the result record. */
    String resultType(String pb, Proc p, boolean boxed) {
        List<Param> outs = p.outputs();
        if (outs.isEmpty()) {
            return boxed ? "Void" : "void";
        }
        if (outs.size() == 1) {
            return types.javaType(outs.get(0).decl().type(), boxed);
        }
        return resultClass(pb, p);
    }

    List<String> paramDecls(Proc p) {
        List<String> l = new ArrayList<>();
        for (Param q : p.inputs()) {
            l.add(types.javaType(q.decl().type(), false) + " " + Names.member(q.decl().name()));
        }
        return l;
    }

    static List<String> paramNames(Proc p) {
        List<String> l = new ArrayList<>();
        for (Param q : p.inputs()) {
            l.add(Names.member(q.decl().name()));
        }
        return l;
    }

    /** A local name from {@code base} that none of {@code taken} has; added to them. */
    static String fresh(String base, Set<String> taken) {
        String n = base;
        for (int i = 2; taken.contains(n); i++) {
            n = base + i;
        }
        taken.add(n);
        return n;
    }

    List<String> procDoc(Proc p, String intro) {
        List<String> doc = new ArrayList<>();
        doc.add(intro);
        doc.add("");
        for (Param q : p.inputs()) {
            doc.add("@param " + Names.member(q.decl().name()) + " " + q.direction() + " {@code "
                    + Names.quote(types.describe(q.decl().type())) + "}");
        }
        return doc;
    }

    static String returnsText(String pb, Proc p) {
        List<Param> outs = p.outputs();
        if (outs.isEmpty()) {
            return "nothing";
        }
        if (outs.size() == 1) {
            return "the OUT parameter {@code " + outs.get(0).decl().name() + "}";
        }
        return "the OUT parameters as a {@code " + resultClass(pb, p) + "}";
    }
}
