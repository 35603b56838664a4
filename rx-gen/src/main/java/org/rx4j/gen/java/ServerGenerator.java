// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.gen.java;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import org.rx4j.gen.xg.Param;
import org.rx4j.gen.xg.Proc;
import org.rx4j.gen.xg.XgException;

/**
 * Generates, per rxgen package (prefix), the server side: the blocking server interface and the dispatcher that
 * registers it on an {@code RxService} (worker pool), and the async server interface ({@code CompletionStage}
 * results) with the dispatcher that registers it as rx-core async handlers (event loop, no thread held per call).
 * Split procs stream bulk data: in the async interface through rx-core's {@code RxAsyncStreams} (Flow publishers
 * with back-pressure), registered as stream handlers on the event loop (docs/rxgen.md, "Async servers").
 */
final class ServerGenerator extends ProcGenerator {
    /** @param ctx names and settings shared by the generators */
    ServerGenerator(GenContext ctx) {
        super(ctx);
    }

    /**
     * @param out class name to source, added to
     * @param pb the package's class-name stem
     * @param prefix the package prefix
     * @param procs the package's procs in file order
     * @throws XgException for a class name clash
     */
    void generate(Map<String, String> out, String pb, String prefix, List<Proc> procs) throws XgException {
        ctx.put(out, pb + "Server", server(pb, prefix, procs), procs.get(0).pos());
        ctx.put(out, pb + "Dispatcher", dispatcher(pb, prefix, procs, false), procs.get(0).pos());
        ctx.put(out, pb + "AsyncServer", asyncServer(pb, prefix, procs), procs.get(0).pos());
        ctx.put(out, pb + "AsyncDispatcher", dispatcher(pb, prefix, procs, true), procs.get(0).pos());
    }

    private String server(String pb, String prefix, List<Proc> procs) {
        Src s = new Src();
        s.doc("The server side of package " + packageText(prefix) + ": implement it and register it with",
                "{@code " + pb + "Dispatcher}. Methods run on the endpoint's worker pool and may block. Throw an",
                "RxException with your own (positive) code to abort the call with it; any other exception aborts",
                "with RX_INVALID_OPERATION (−2), an IOException with RX_CALL_DEAD (−1). The arguments have been",
                "decoded and checked against their bounds (bad or hostile ones abort with RXGEN_SS_UNMARSHAL −453",
                "before the method runs). {@code " + pb + "AsyncServer} is the form that holds no thread per call.");
        methods(s, pb + "Server", procs, p -> blockingMethod(s, pb, p));
        return s.toString();
    }

    /** The interface {@code name}: one method per proc, a blank line between them. */
    private static void methods(Src s, String name, List<Proc> procs, Consumer<Proc> method) {
        s.line("public interface " + name + " {");
        for (int i = 0; i < procs.size(); i++) {
            if (i > 0) {
                s.line("");
            }
            method.accept(procs.get(i));
        }
        s.line("}");
    }

    /** A proc's method in the blocking form: gets the call, returns the results (a split proc's in both forms). */
    private void blockingMethod(Src s, String pb, Proc p) {
        Set<String> taken = new HashSet<>(paramNames(p));
        String call = fresh("call", taken);
        List<String> doc = new ArrayList<>();
        doc.add("Serves {@code " + p.fullName() + "}, opcode " + p.opcode() + " (" + ctx.where(p.pos()) + ")"
                + (p.split() ? ": a split proc. Read or write the bulk data on the call's streams before "
                + "returning; the OUT results are written after it." : "."));
        doc.add("");
        doc.add("@param " + call + " the call: the caller's address and identity"
                + (p.split() ? ", and the streams for bulk data" : ""));
        doc.addAll(paramLines(p));
        if (!p.outputs().isEmpty()) {
            doc.add("@return " + returnsText(pb, p));
        }
        doc.add("@throws Exception to abort the call (an RxException: with its code)");
        s.doc(doc.toArray(String[]::new));
        List<String> decls = new ArrayList<>();
        decls.add("RxCall " + call);
        decls.addAll(paramDecls(p));
        s.line(resultType(pb, p, false) + " " + Names.member(p.name()) + "(" + String.join(", ", decls)
                + ") throws Exception;");
    }

    /** The {@code @param} lines of a proc's IN parameters. */
    private List<String> paramLines(Proc p) {
        List<String> doc = procDoc(p, "");
        return doc.subList(2, doc.size());
    }

    private String asyncServer(String pb, String prefix, List<Proc> procs) {
        Src s = new Src();
        List<String> doc = new ArrayList<>(List.of("The server side of package " + packageText(prefix) + " without a thread per call: implement it and",
                "register it with {@code " + pb + "AsyncDispatcher}. Each method gets the whole request, decoded and",
                "checked against its bounds (bad or hostile arguments abort with RXGEN_SS_UNMARSHAL −453 before it",
                "runs), and returns a stage of the results; the reply is encoded and sent when the stage completes, on",
                "whatever thread completes it (values out of their bounds: RXGEN_SS_MARSHAL −452).",
                "",
                "<p>Threading: the methods run <b>on the connection's event loop</b>, which carries every call of the",
                "endpoint: they must not block, sleep or do long work; start the work (on an executor of your own, or",
                "another async client) and return its stage.",
                "",
                "<p>Errors: a stage completed exceptionally, or an exception thrown by the method, aborts the call: an",
                "RxException with its code (use {@code RxException.local} with your own positive code), a",
                "CancellationException with RX_USER_ABORT (−6), anything else with RX_INVALID_OPERATION (−2), as",
                "rx-core's {@code RxAsyncHandler} says. A null stage aborts with −2. A request larger than the",
                "endpoint's {@code maxMessageBytes} is aborted with RX_MSGSIZE (−8) before the method runs."));
        if (procs.stream().anyMatch(Proc::split)) {
            doc.addAll(List.of("",
                    "<p>Split procs get the call's {@code RxAsyncStreams} after the IN arguments: receive or send the",
                    "bulk data there (Flow publishers with back-pressure through the call's windows, no thread held",
                    "while waiting) and complete the stage with the OUT results, which are sent after the bulk data."));
        }
        s.doc(doc.toArray(String[]::new));
        methods(s, pb + "AsyncServer", procs, p -> {
            if (p.split()) {
                asyncSplitMethod(s, pb, p);
            } else {
                asyncMethod(s, pb, p);
            }
        });
        return s.toString();
    }

    /** A proc's method in the async form: gets the request, returns a stage of the results. */
    private void asyncMethod(Src s, String pb, Proc p) {
        Set<String> taken = new HashSet<>(paramNames(p));
        String request = fresh("request", taken);
        List<String> doc = new ArrayList<>();
        doc.add("Serves {@code " + p.fullName() + "}, opcode " + p.opcode() + " (" + ctx.where(p.pos())
                + "), on the event loop: must not block.");
        doc.add("");
        doc.add("@param " + request + " the request: the caller's address, connection and identity");
        doc.addAll(paramLines(p));
        doc.add("@return a stage of " + returnsText(pb, p) + (p.outputs().isEmpty() ? " (complete it with null)"
                : "") + "; completed exceptionally to abort the call (an RxException: with its code)");
        doc.add("@throws Exception to abort the call (an RxException: with its code)");
        s.doc(doc.toArray(String[]::new));
        List<String> decls = new ArrayList<>();
        decls.add("RxRequest " + request);
        decls.addAll(paramDecls(p));
        s.line("CompletionStage<" + resultType(pb, p, true) + "> " + Names.member(p.name()) + "("
                + String.join(", ", decls) + ") throws Exception;");
    }

    /** A split proc's method in the async form: gets the streams, returns a stage of the results. */
    private void asyncSplitMethod(Src s, String pb, Proc p) {
        Set<String> taken = new HashSet<>(paramNames(p));
        String streams = fresh("streams", taken);
        List<String> doc = new ArrayList<>();
        doc.add("Serves split proc {@code " + p.fullName() + "}, opcode " + p.opcode() + " (" + ctx.where(p.pos())
                + "), on the event loop: must not block. Receive or send the bulk data on the streams; the OUT "
                + "results are sent when the stage completes, after every send made before.");
        doc.add("");
        doc.add("@param " + streams + " the call's async streams after the IN arguments ({@code " + streams
                + ".call()}: the caller's address, identity and cancellation context)");
        doc.addAll(paramLines(p));
        doc.add("@return a stage of " + returnsText(pb, p) + (p.outputs().isEmpty() ? " (complete it with null)"
                : "") + "; completed exceptionally to abort the call (an RxException: with its code)");
        doc.add("@throws Exception to abort the call (an RxException: with its code)");
        s.doc(doc.toArray(String[]::new));
        List<String> decls = new ArrayList<>();
        decls.add("RxAsyncStreams " + streams);
        decls.addAll(paramDecls(p));
        s.line("CompletionStage<" + resultType(pb, p, true) + "> " + Names.member(p.name()) + "("
                + String.join(", ", decls) + ") throws Exception;");
    }

    private String dispatcher(String pb, String prefix, List<Proc> procs, boolean async) {
        String x = ctx.xdrClass();
        String cls = pb + (async ? "AsyncDispatcher" : "Dispatcher");
        String server = pb + (async ? "AsyncServer" : "Server");
        Src s = new Src();
        if (async) {
            s.doc("Registers the opcodes of package " + packageText(prefix) + " on an RxService for a {@code "
                            + server + "}:",
                    "each proc as an async handler on the event loop (no thread is held while its stage is pending)",
                    "that decodes the arguments (bad or hostile ones: RXGEN_SS_UNMARSHAL −453), calls the server and",
                    "encodes the stage's results (values out of their bounds: RXGEN_SS_MARSHAL −452); split procs as",
                    "stream handlers, whose bulk data flows on the call's async streams between the arguments and the",
                    "results. Other opcodes are refused by the service with RXGEN_OPCODE (−455).");
        } else {
            s.doc("Registers the opcodes of package " + packageText(prefix) + " on an RxService, each as a blocking",
                    "handler that decodes the arguments (bad or hostile ones: RXGEN_SS_UNMARSHAL −453), calls the",
                    "{@code " + server + "} and encodes its results (values out of their bounds: RXGEN_SS_MARSHAL",
                    "−452). Other opcodes are refused by the service with RXGEN_OPCODE (−455).");
        }
        s.line("public final class " + cls + " {");
        for (Proc p : procs) {
            s.wrapped("private static final " + x + ".Proc " + Names.constant(p.name()) + " = new " + x + ".Proc(\""
                    + p.fullName() + "\", " + pb + "Opcodes." + Names.constant(p.name()) + ");");
        }
        s.line("");
        s.line("private " + cls + "() {");
        s.line("}");
        s.line("");
        s.doc("Builds a service serving every proc of the package.", "",
                "@param serviceId the service id clients connect to, 1..65535 (the .xg file does not name it)",
                "@param securityClass the security class the service accepts (rxnull today)",
                "@param server the implementation",
                "@return the service, to register on an RxEndpoint",
                "@throws IllegalArgumentException if serviceId is out of range");
        s.line("public static RxService service(int serviceId, SecurityClass securityClass, " + server + " server) {");
        s.line("return register(RxService.builder(serviceId).securityClass(securityClass), server).build();");
        s.line("}");
        s.line("");
        s.doc("Adds every proc of the package to a service builder.", "",
                "@param builder the builder", "@param server the implementation", "@return the builder",
                "@throws IllegalStateException if one of the opcodes already has a handler");
        s.line("public static RxService.Builder register(RxService.Builder builder, " + server + " server) {");
        s.line("Objects.requireNonNull(server, \"server\");");
        for (Proc p : procs) {
            String opcode = pb + "Opcodes." + Names.constant(p.name());
            if (async && p.split()) {
                s.wrapped("builder.stream(" + opcode + ", (streams, opcode) -> " + Names.member(p.name())
                        + "(server, streams));");
            } else if (async) {
                s.wrapped("builder.async(" + opcode + ", request -> " + Names.member(p.name()) + "(server, request));");
            } else {
                s.wrapped("builder.blocking(" + opcode + ", (call, opcode) -> " + Names.member(p.name())
                        + "(server, call));");
            }
        }
        s.line("return builder;");
        s.line("}");
        for (Proc p : procs) {
            if (async && p.split()) {
                asyncSplitDispatchProc(s, pb, p);
            } else if (async) {
                asyncDispatchProc(s, pb, p);
            } else {
                dispatchProc(s, pb, server, p);
            }
        }
        s.line("}");
        return s.toString();
    }

    /** Declares the IN parameters as locals and decodes them with {@code reader}: failures abort with −453. */
    private void decodeArguments(Src s, Proc p, String reader, String ex) {
        String c = Names.constant(p.name());
        for (Param q : p.inputs()) {
            s.line(types.javaType(q.decl().type(), false) + " " + Names.member(q.decl().name()) + ";");
        }
        s.line("try {");
        for (Param q : p.inputs()) {
            s.line(Names.member(q.decl().name()) + " = " + types.decode(q.decl().type(), reader) + ";");
        }
        s.line("} catch (IOException | RuntimeException " + ex + ") {");
        s.line("throw " + ctx.xdrClass() + ".named(" + c + ", " + ex + ", XdrSide.SERVER.unmarshalCode());");
        s.line("}");
    }

    /** Writes the OUT results in {@code result} with {@code writer} (a null record fails as a marshal error). */
    private void encodeResults(Src s, Proc p, String writer, String result) {
        if (p.outputs().size() == 1) {
            s.line(types.encode(p.outputs().get(0).decl().type(), writer, result) + ";");
            return;
        }
        s.line("if (" + result + " == null) {");
        s.line("throw " + writer + ".marshalError(\"null results\");");
        s.line("}");
        for (Param q : p.outputs()) {
            s.line(types.encode(q.decl().type(), writer, result + "." + Names.member(q.decl().name()) + "()") + ";");
        }
    }

    private void dispatchProc(Src s, String pb, String serverType, Proc p) {
        String x = ctx.xdrClass();
        String c = Names.constant(p.name());
        Set<String> taken = new HashSet<>(paramNames(p));
        String server = fresh("server", taken);
        String call = fresh("call", taken);
        String reader = fresh("reader", taken);
        String writer = fresh("writer", taken);
        String result = fresh("result", taken);
        String ex = fresh("ex", taken);
        s.line("");
        s.line("private static void " + Names.member(p.name()) + "(" + serverType + " " + server + ", RxCall " + call
                + ") throws Exception {");
        if (!p.inputs().isEmpty()) {
            s.line("XdrReader " + reader + " = new XdrReader(" + call + ".input(), XdrSide.SERVER);");
            decodeArguments(s, p, reader, ex);
        }
        List<String> args = new ArrayList<>();
        args.add(call);
        args.addAll(paramNames(p));
        String invoke = server + "." + Names.member(p.name()) + "(" + String.join(", ", args) + ")";
        if (p.outputs().isEmpty()) {
            s.line(invoke + ";");
            s.line("}");
            return;
        }
        s.line(resultType(pb, p, false) + " " + result + " = " + invoke + ";");
        s.line("try {");
        s.line("XdrWriter " + writer + " = new XdrWriter(" + call + ".output(), XdrSide.SERVER);");
        encodeResults(s, p, writer, result);
        s.line("} catch (IOException | RuntimeException " + ex + ") {");
        s.line("throw " + x + ".named(" + c + ", " + ex + ", XdrSide.SERVER.marshalCode());");
        s.line("}");
        s.line("}");
    }

    /**
     * An async handler's body: decodes on the loop, calls the server, encodes the stage's results where it
     * completes. Lambda parameters may not shadow the method's locals, hence one set of taken names.
     */
    private void asyncDispatchProc(Src s, String pb, Proc p) {
        String x = ctx.xdrClass();
        String c = Names.constant(p.name());
        Set<String> taken = new HashSet<>(paramNames(p));
        String server = fresh("server", taken);
        String request = fresh("request", taken);
        String reader = fresh("reader", taken);
        String stage = fresh("stage", taken);
        String result = fresh("result", taken);
        String writer = fresh("writer", taken);
        String ex = fresh("ex", taken);
        s.line("");
        s.line("private static CompletionStage<byte[]> " + Names.member(p.name()) + "(" + pb + "AsyncServer "
                + server + ", RxRequest " + request + ") throws Exception {");
        if (!p.inputs().isEmpty()) {
            s.line("XdrReader " + reader + " = " + request + ".xdr();");
            decodeArguments(s, p, reader, ex);
        }
        List<String> args = new ArrayList<>();
        args.add(request);
        args.addAll(paramNames(p));
        String invoke = server + "." + Names.member(p.name()) + "(" + String.join(", ", args) + ")";
        s.wrapped("CompletionStage<" + resultType(pb, p, true) + "> " + stage + " = Objects.requireNonNull(" + invoke
                + ", \"" + p.fullName() + " returned no stage\");");
        if (p.outputs().isEmpty()) {
            s.line("return " + stage + ".thenApply(" + result + " -> new byte[0]);");
            s.line("}");
            return;
        }
        s.line("return " + stage + ".thenApply(" + result + " -> {");
        s.line("try {");
        s.line("return XdrMarshaller.toBytes(XdrSide.SERVER, " + writer + " -> {");
        encodeResults(s, p, writer, result);
        s.line("});");
        s.line("} catch (IOException | RuntimeException " + ex + ") {");
        s.line("throw new CompletionException(" + x + ".named(" + c + ", " + ex + ", XdrSide.SERVER.marshalCode()));");
        s.line("}");
        s.line("});");
        s.line("}");
    }

    /**
     * A split proc's stream handler: decodes the IN arguments from the stream as they arrive (an XDR item of their
     * own, a record), calls the server with the streams, then sends the stage's results after its bulk data.
     */
    private void asyncSplitDispatchProc(Src s, String pb, Proc p) {
        String x = ctx.xdrClass();
        String c = Names.constant(p.name());
        Set<String> taken = new HashSet<>(paramNames(p));
        String server = fresh("server", taken);
        String streams = fresh("streams", taken);
        String reader = fresh("reader", taken);
        String args = fresh("args", taken);
        String result = fresh("result", taken);
        String writer = fresh("writer", taken);
        String bytes = fresh("bytes", taken);
        String ex = fresh("ex", taken);
        String decoded = fresh("decoded", taken);
        String argsRecord = Names.type(p.name()) + "Arguments";
        s.line("");
        if (!p.inputs().isEmpty()) {
            s.line("/** The IN arguments of {@code " + p.fullName() + "}, decoded before the bulk data. */");
            s.line("private record " + argsRecord + "(" + String.join(", ", paramDecls(p)) + ") {");
            s.line("}");
            s.line("");
        }
        s.line("private static CompletionStage<Void> " + Names.member(p.name()) + "(" + pb + "AsyncServer " + server
                + ", RxAsyncStreams " + streams + ") {");
        List<String> call = new ArrayList<>();
        call.add(streams);
        if (p.inputs().isEmpty()) {
            s.line("CompletableFuture<Void> " + args + " = CompletableFuture.completedFuture(null);");
        } else {
            s.line("CompletableFuture<" + argsRecord + "> " + args + " = " + x + ".arguments(" + c + ",");
            s.line("        " + streams + ".receiveXdr(" + reader + " -> new " + argsRecord + "(");
            for (int i = 0; i < p.inputs().size(); i++) {
                Param q = p.inputs().get(i);
                s.line("                " + types.decode(q.decl().type(), reader) + (i == p.inputs().size() - 1
                        ? ")));"
                        : ","));
                call.add(decoded + "." + Names.member(q.decl().name()) + "()");
            }
        }
        String invoke = server + "." + Names.member(p.name()) + "(" + String.join(", ", call) + ")";
        s.line("return " + args + ".thenCompose(" + decoded + " -> {");
        s.line("try {");
        s.wrapped("return Objects.requireNonNull(" + invoke + ", \"" + p.fullName() + " returned no stage\");");
        s.line("} catch (Exception " + ex + ") {");
        s.line("throw new CompletionException(" + ex + ");");
        s.line("}");
        if (p.outputs().isEmpty()) {
            s.line("}).thenApply(" + result + " -> null);");
            s.line("}");
            return;
        }
        s.line("}).thenCompose(" + result + " -> {");
        s.line("byte[] " + bytes + ";");
        s.line("try {");
        s.line(bytes + " = XdrMarshaller.toBytes(XdrSide.SERVER, " + writer + " -> {");
        encodeResults(s, p, writer, result);
        s.line("});");
        s.line("} catch (IOException | RuntimeException " + ex + ") {");
        s.line("throw new CompletionException(" + x + ".named(" + c + ", " + ex + ", XdrSide.SERVER.marshalCode()));");
        s.line("}");
        s.line("return " + streams + ".send(" + bytes + ");");
        s.line("});");
        s.line("}");
    }
}
