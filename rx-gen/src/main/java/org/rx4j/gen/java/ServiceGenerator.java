// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.gen.java;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.rx4j.gen.xg.Param;
import org.rx4j.gen.xg.Proc;
import org.rx4j.gen.xg.XgException;

/**
 * Generates, per rxgen package (prefix), the opcodes, the result records and the client; the server side is
 * {@link ServerGenerator}'s.
 */
final class ServiceGenerator extends ProcGenerator {
    private final ServerGenerator servers;

    /** @param ctx names and settings shared by the generators */
    ServiceGenerator(GenContext ctx) {
        super(ctx);
        this.servers = new ServerGenerator(ctx);
    }

    /**
     * @param out class name to source, added to
     * @param prefix the package prefix
     * @param procs the package's procs in file order
     * @throws XgException for a class name clash
     */
    void generate(Map<String, String> out, String prefix, List<Proc> procs) throws XgException {
        String pb = ctx.packageBase(prefix);
        ctx.put(out, pb + "Opcodes", opcodes(pb, prefix, procs), procs.get(0).pos());
        for (Proc p : procs) {
            if (p.outputs().size() > 1) {
                ctx.put(out, resultClass(pb, p), result(pb, p), p.pos());
            }
        }
        ctx.put(out, pb + "Client", client(pb, prefix, procs), procs.get(0).pos());
        servers.generate(out, pb, prefix, procs);
    }

    private String opcodes(String pb, String prefix, List<Proc> procs) {
        Src s = new Src();
        s.doc("The opcodes of package " + packageText(prefix) + ": the first 4 bytes of each request.");
        s.line("public final class " + pb + "Opcodes {");
        for (Proc p : procs) {
            s.doc("{@code " + p.fullName() + "} (" + ctx.where(p.pos()) + ").");
            s.line("public static final int " + Names.constant(p.name()) + " = " + p.opcode() + ";");
            s.line("");
        }
        s.doc("The proc an opcode of this package names, as rxgen's C and the call errors spell it.", "",
                "@param opcode a request's opcode", "@return the proc's name, e.g. {@code " + procs.get(0).fullName()
                        + "}, or null when this package has no proc with that opcode");
        s.line("public static String procName(int opcode) {");
        s.line("return switch (opcode) {");
        for (Proc p : procs) {
            s.line("case " + Names.constant(p.name()) + " -> \"" + p.fullName() + "\";");
        }
        s.line("default -> null;");
        s.line("};");
        s.line("}");
        s.line("");
        s.doc("Names this package's procs for {@code RxEndpoint.Builder.procNames}, so interceptors, the call log",
                "and metrics see them: {@code .procNames(" + pb + "Opcodes.procNames(SERVICE_ID))}; join the names",
                "of several services with {@link RxProcNames#orElse}.", "",
                "@param serviceId the service id the package is served or called on, 1..65535 (the .xg file does",
                "    not name it)",
                "@return {@link #procName} of the opcode for calls of that service, null for other services' calls",
                "@throws IllegalArgumentException if serviceId is not 1..65535");
        s.line("public static RxProcNames procNames(int serviceId) {");
        s.line("if (serviceId < 1 || serviceId > 0xFFFF) {");
        s.line("throw new IllegalArgumentException(\"service id \" + serviceId + \" is not 1..65535\");");
        s.line("}");
        s.line("return (service, opcode) -> service == serviceId ? procName(opcode) : null;");
        s.line("}");
        s.line("");
        s.line("private " + pb + "Opcodes() {");
        s.line("}");
        s.line("}");
        return s.toString();
    }

    private String result(String pb, Proc p) {
        Src s = new Src();
        List<String> doc = new ArrayList<>();
        doc.add("The OUT (and INOUT) results of {@code " + p.fullName() + "}, in wire order.");
        doc.add("");
        List<String> comps = new ArrayList<>();
        for (Param q : p.outputs()) {
            String n = Names.member(q.decl().name());
            doc.add("@param " + n + " {@code " + Names.quote(types.describe(q.decl().type())) + "}");
            comps.add(types.javaType(q.decl().type(), false) + " " + n);
        }
        s.doc(doc.toArray(String[]::new));
        s.list("public record " + resultClass(pb, p), comps, " {");
        s.line("}");
        return s.toString();
    }

    private String client(String pb, String prefix, List<Proc> procs) {
        String x = ctx.xdrClass();
        String cls = pb + "Client";
        Src s = new Src();
        s.doc("Client of package " + packageText(prefix) + ": per proc a blocking method and a",
                "{@code CompletableFuture} method, each also with a deadline (the call's whole life; past it the call",
                "fails with RX_CALL_TIMEOUT −3); a split proc gives a {@code " + ctx.splitClass() + "} instead, and",
                "its {@code Async} method a {@code " + ctx.asyncSplitClass() + "} (bulk data as Flow publishers).",
                "",
                "<p>Every failure names the proc and opcode ({@code " + ctx.exceptionClass() + "}, an RxException",
                "keeping the abort code): the server's abort (remote), RXGEN_CC_MARSHAL −450 for an argument out of",
                "its bounds (nothing is sent), RXGEN_CC_UNMARSHAL −451 for results that cannot be decoded (the call",
                "is aborted), or the connection's own errors. Thread-safe, as the connection is.",
                "",
                "<p>Where the {@code Async} methods' futures complete: on the endpoint's callback executor",
                "({@code RxEndpoint.Builder.callbackExecutor}, default {@code ForkJoinPool.commonPool()}; the event loop",
                "after {@code callbacksOnEventLoop()}), so that is where their non-async dependent stages run. A failure",
                "found before anything is sent (an argument out of its bounds, a closing endpoint) returns the future",
                "already failed: then dependent stages run on the calling thread. Cancelling completes it on the",
                "cancelling thread.",
                "",
                "<p>Calls go to an {@code RxCallTarget}: an {@code RxConnectionPool} (more Rx connections as calls",
                "need them, idle ones closed, idempotent procs repeated as its {@code RxRetryPolicy} says) or a single",
                "{@code RxConnection} (4 calls at once). Ownership: a client made by {@link #connect} owns the pool it",
                "opened and {@link #close()} closes it; a client made on a given target ({@code new " + cls
                        + "(target)}) does not, and closing it does nothing (the target's owner closes it). The",
                "endpoint is never the client's.");
        s.line("public final class " + cls + " implements AutoCloseable {");
        for (Proc p : procs) {
            s.wrapped("private static final " + x + ".Proc " + Names.constant(p.name()) + " = new " + x + ".Proc(\""
                    + p.fullName() + "\", " + pb + "Opcodes." + Names.constant(p.name()) + ");");
        }
        s.line("");
        s.line("private final RxCallTarget target;");
        s.line("private final boolean ownsTarget;");
        s.line("");
        s.doc("A client on a pool or connection it does not own ({@link #close()} leaves it open).", "",
                "@param target a pool or connection to the service (its security class is the one the calls use)");
        s.line("public " + cls + "(RxCallTarget target) {");
        s.line("this(target, false);");
        s.line("}");
        s.line("");
        s.line("private " + cls + "(RxCallTarget target, boolean ownsTarget) {");
        s.line("this.target = Objects.requireNonNull(target, \"target\");");
        s.line("this.ownsTarget = ownsTarget;");
        s.line("}");
        s.line("");
        s.doc("Opens a connection pool with the default settings ({@code RxPoolConfig.defaults()}: up to 8",
                "connections, 60 s idle, no repeats) and a client on it.", "",
                "@param endpoint the local endpoint", "@param server the server's address (resolved)",
                "@param serviceId the service id, 1..65535 (the .xg file does not name it)",
                "@param securityClass the security class every connection uses",
                "@return a client on a new pool, which it owns ({@link #close()} closes it)",
                "@throws IllegalArgumentException as {@code RxEndpoint.connect}");
        s.line("public static " + cls + " connect(RxEndpoint endpoint, InetSocketAddress server, int serviceId,");
        s.line("        SecurityClass securityClass) {");
        s.line("return connect(endpoint, server, serviceId, securityClass, RxPoolConfig.defaults());");
        s.line("}");
        s.line("");
        s.doc("Opens a connection pool and a client on it; mark idempotent procs for repeats with",
                "{@code RxRetryPolicy.idempotent(" + pb + "Opcodes.X, ...)} in {@code config}.", "",
                "@param endpoint the local endpoint", "@param server the server's address (resolved)",
                "@param serviceId the service id, 1..65535 (the .xg file does not name it)",
                "@param securityClass the security class every connection uses",
                "@param config the pool's bound, idle time and retry policy",
                "@return a client on a new pool, which it owns ({@link #close()} closes it)",
                "@throws IllegalArgumentException as {@code RxEndpoint.connect}");
        s.line("public static " + cls + " connect(RxEndpoint endpoint, InetSocketAddress server, int serviceId,");
        s.line("        SecurityClass securityClass, RxPoolConfig config) {");
        s.line("return new " + cls + "(RxConnectionPool.open(endpoint, server, serviceId, securityClass, config), true);");
        s.line("}");
        s.line("");
        s.doc("@return the pool or connection the calls use");
        s.line("public RxCallTarget target() {");
        s.line("return target;");
        s.line("}");
        s.line("");
        s.doc("Closes the pool if this client owns it (made by {@link #connect}): its unfinished calls are",
                "aborted with RX_USER_ABORT (−6), as {@code RxConnection.close()} does. Otherwise does nothing.",
                "Idempotent.");
        s.line("@Override");
        s.line("public void close() {");
        s.line("if (ownsTarget) {");
        s.line("target.close();");
        s.line("}");
        s.line("}");
        for (Proc p : procs) {
            clientProc(s, pb, p);
        }
        s.trimBlank();
        s.line("}");
        return s.toString();
    }

    /** A proc's client method name; "target", "connect" and "close" are the client's own ("connection" was). */
    private static String clientMethod(Proc p) {
        String m = Names.member(p.name());
        return m.equals("connection") || m.equals("target") || m.equals("connect") || m.equals("close") ? m + "Rpc"
                : m;
    }

    private void clientProc(Src s, String pb, Proc p) {
        String x = ctx.xdrClass();
        String m = clientMethod(p);
        String c = Names.constant(p.name());
        String params = String.join(", ", paramDecls(p));
        String args = String.join(", ", paramNames(p));
        String argsExpr = p.inputs().isEmpty() ? x + ".NOTHING" : m + "Arguments(" + args + ")";
        String resultsExpr = p.outputs().isEmpty() ? x + ".NO_RESULTS" : c + "_RESULTS";
        String boxed = resultType(pb, p, true);
        String plain = resultType(pb, p, false);
        String sep = params.isEmpty() ? "" : ", ";
        String dl = fresh("deadline", new HashSet<>(paramNames(p)));
        String intro = "{@code " + p.fullName() + "}, opcode " + p.opcode() + " (" + ctx.where(p.pos()) + ")";
        String errors = "@throws IOException an RxException naming the proc (see the class comment)";
        s.line("");
        if (p.split()) {
            for (boolean deadline : new boolean[] {false, true}) {
                List<String> doc = procDoc(p, "Starts split proc " + intro + ": writes the opcode and the IN "
                        + "arguments, then gives the call for bulk data; {@code end()} returns "
                        + returnsText(pb, p) + ".");
                if (deadline) {
                    doc.add("@param " + dl + " the call's whole life, positive");
                }
                doc.add("@return the call between its IN and OUT phases");
                doc.add(errors);
                s.doc(doc.toArray(String[]::new));
                s.line("public " + ctx.splitClass() + "<" + boxed + "> " + m + "(" + params
                        + (deadline ? sep + "Duration " + dl : "") + ") throws IOException {");
                s.wrapped("return new " + ctx.splitClass() + "<>(" + x + ".start(this.target, "
                        + (deadline ? "Objects.requireNonNull(" + dl + ", \"deadline\")" : "null") + ", " + c + ", "
                        + argsExpr + "), " + c + ", " + resultsExpr + ");");
                s.line("}");
                s.line("");
            }
            for (boolean deadline : new boolean[] {false, true}) {
                List<String> doc = procDoc(p, "Starts split proc " + intro + " in its async form: sends the opcode "
                        + "and the IN arguments without waiting, then gives the call's async streams for bulk data "
                        + "(Flow publishers with back-pressure, no thread held); {@code end()} gives a future of "
                        + returnsText(pb, p) + ".");
                if (deadline) {
                    doc.add("@param " + dl + " the call's whole life, positive");
                }
                doc.add("@return the call between its IN and OUT phases");
                doc.add("@throws IOException an RxException naming the proc, for a failure found before anything is "
                        + "sent (an argument out of its bounds: RXGEN_CC_MARSHAL −450, a closed connection)");
                s.doc(doc.toArray(String[]::new));
                s.line("public " + ctx.asyncSplitClass() + "<" + boxed + "> " + m + "Async(" + params
                        + (deadline ? sep + "Duration " + dl : "") + ") throws IOException {");
                s.wrapped("return new " + ctx.asyncSplitClass() + "<>(" + x + ".startAsync(this.target, "
                        + (deadline ? "Objects.requireNonNull(" + dl + ", \"deadline\")" : "null") + ", " + c + ", "
                        + argsExpr + "), " + c + ", " + resultsExpr + ");");
                s.line("}");
                s.line("");
            }
        } else {
            for (boolean deadline : new boolean[] {false, true}) {
                List<String> doc = procDoc(p, "Calls " + intro + ", blocking.");
                if (deadline) {
                    doc.add("@param " + dl + " the call's whole life, positive");
                }
                if (!p.outputs().isEmpty()) {
                    doc.add("@return " + returnsText(pb, p));
                }
                doc.add(errors);
                s.doc(doc.toArray(String[]::new));
                s.line("public " + plain + " " + m + "(" + params + (deadline ? sep + "Duration " + dl : "")
                        + ") throws IOException {");
                s.wrapped((p.outputs().isEmpty() ? "" : "return ") + x + ".call(this.target, "
                        + (deadline ? "Objects.requireNonNull(" + dl + ", \"deadline\")" : "null") + ", " + c + ", "
                        + argsExpr + ", " + resultsExpr + ");");
                s.line("}");
                s.line("");
            }
            for (boolean deadline : new boolean[] {false, true}) {
                List<String> doc = procDoc(p, "Calls " + intro + " without blocking; cancelling the future "
                        + "cancels the call (RX_USER_ABORT −6). The future completes on the endpoint's callback "
                        + "executor (see the class comment).");
                if (deadline) {
                    doc.add("@param " + dl + " the call's whole life, positive");
                }
                doc.add("@return a future of " + returnsText(pb, p) + (p.outputs().isEmpty() ? " (null)" : "")
                        + "; exceptionally an RxException naming the proc");
                s.doc(doc.toArray(String[]::new));
                s.line("public CompletableFuture<" + boxed + "> " + m + "Async(" + params
                        + (deadline ? sep + "Duration " + dl : "") + ") {");
                s.wrapped("return " + x + ".callAsync(this.target, "
                        + (deadline ? "Objects.requireNonNull(" + dl + ", \"deadline\")" : "null") + ", " + c + ", "
                        + argsExpr + ", " + resultsExpr + ");");
                s.line("}");
                s.line("");
            }
        }
        if (!p.inputs().isEmpty()) {
            Set<String> taken = new HashSet<>(paramNames(p));
            String w = fresh("writer", taken);
            s.line("private static XdrMarshaller " + m + "Arguments(" + params + ") {");
            s.line("return " + w + " -> {");
            for (Param q : p.inputs()) {
                s.line(types.encode(q.decl().type(), w, Names.member(q.decl().name())) + ";");
            }
            s.line("};");
            s.line("}");
            s.line("");
        }
        if (!p.outputs().isEmpty()) {
            s.line("private static final XdrUnmarshaller<" + boxed + "> " + c + "_RESULTS = reader ->");
            if (p.outputs().size() == 1) {
                s.line("        " + types.decode(p.outputs().get(0).decl().type(), "reader") + ";");
            } else {
                s.line("        new " + resultClass(pb, p) + "(");
                for (int i = 0; i < p.outputs().size(); i++) {
                    s.line("                " + types.decode(p.outputs().get(i).decl().type(), "reader")
                            + (i == p.outputs().size() - 1 ? ");" : ","));
                }
            }
        }
    }
}
