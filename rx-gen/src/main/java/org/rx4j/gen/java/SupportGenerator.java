// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.gen.java;

import java.util.Map;
import org.rx4j.gen.xg.XgException;

/**
 * Generates the file-wide support classes: {@code <File>Xdr} (fixed char arrays, small codecs, the call helpers
 * shared by clients and dispatchers), {@code <File>CallException} (an RxException naming the proc and opcode)
 * and {@code <File>SplitCall} (a split proc between its IN and OUT phases).
 */
final class SupportGenerator {
    private final GenContext ctx;

    /** @param ctx names and settings shared by the generators */
    SupportGenerator(GenContext ctx) {
        this.ctx = ctx;
    }

    /**
     * @param out class name to source, added to
     * @param withProcs true if the file has procs (the call helpers and exception are needed)
     * @param withSplit true if a proc is split
     * @throws XgException for a class name clash
     */
    void generate(Map<String, String> out, boolean withProcs, boolean withSplit) throws XgException {
        ctx.put(out, ctx.xdrClass(), xdr(withProcs, withSplit), null);
        if (withProcs) {
            ctx.put(out, ctx.exceptionClass(), exception(), null);
        }
        if (withSplit) {
            ctx.put(out, ctx.splitClass(), split(), null);
            ctx.put(out, ctx.asyncSplitClass(), asyncSplit(), null);
        }
    }

    private String xdr(boolean withProcs, boolean withSplit) {
        String x = ctx.xdrClass();
        String e = ctx.exceptionClass();
        Src s = new Src();
        s.doc("XDR and call helpers for the classes generated from " + ctx.fileName() + " (not public API).");
        s.line("final class " + x + " {");
        s.doc("{@code short}: a 4-byte int on the wire, sign-extended.");
        s.line("static final XdrCodec<Short> SHORT = XdrCodec.of(");
        s.line("        (w, v) -> w.writeInt(require(w, v, \"short\")), r -> (short) r.readInt());");
        s.doc("{@code unsigned short}: a 4-byte int on the wire, 0..65535 (Java keeps the 16 bits).");
        s.line("static final XdrCodec<Short> USHORT = XdrCodec.of(");
        s.line("        (w, v) -> w.writeInt(require(w, v, \"unsigned short\") & 0xFFFF), r -> (short) r.readInt());");
        s.doc("{@code char}: a 4-byte int on the wire, sign-extended.");
        s.line("static final XdrCodec<Byte> CHAR = XdrCodec.of(");
        s.line("        (w, v) -> w.writeInt(require(w, v, \"char\")), r -> (byte) r.readInt());");
        s.doc("{@code unsigned char}: a 4-byte int on the wire, 0..255 (Java keeps the 8 bits).");
        s.line("static final XdrCodec<Byte> UCHAR = XdrCodec.of(");
        s.line("        (w, v) -> w.writeInt(require(w, v, \"unsigned char\") & 0xFF), r -> (byte) r.readInt());");
        s.line("");
        s.line("private " + x + "() {");
        s.line("}");
        s.line("");
        s.doc("Writes rxgen's {@code char name[size]}: size 4-byte ints, one per char (ISO-8859-1, sign-extended",
                "as C's char), the string's chars then NULs. At most size - 1 chars, so a C reader finds a NUL.");
        s.line("static void writeChars(XdrWriter w, String value, int size) throws IOException {");
        s.line("if (value == null) {");
        s.line("throw w.marshalError(\"null char[\" + size + \"]\");");
        s.line("}");
        s.line("if (value.length() >= size) {");
        s.line("throw w.marshalError(\"string of \" + value.length() + \" chars does not fit char[\" + size");
        s.line("        + \"] with its NUL\");");
        s.line("}");
        s.line("for (int i = 0; i < size; i++) {");
        s.line("char c = i < value.length() ? value.charAt(i) : 0;");
        s.line("if (c > 0xFF) {");
        s.line("throw w.marshalError(\"char \" + i + \" is U+\" + Integer.toHexString(c)");
        s.line("        + \", not a byte (ISO-8859-1)\");");
        s.line("}");
        s.line("w.writeInt((byte) c);");
        s.line("}");
        s.line("}");
        s.line("");
        s.doc("Reads rxgen's {@code char name[size]}: size 4-byte ints, each's low byte a char; the string ends at",
                "the first NUL (all size chars if there is none).");
        s.line("static String readChars(XdrReader r, int size) throws IOException {");
        s.line("StringBuilder b = new StringBuilder();");
        s.line("boolean ended = false;");
        s.line("for (int i = 0; i < size; i++) {");
        s.line("char c = (char) (r.readInt() & 0xFF);");
        s.line("ended |= c == 0;");
        s.line("if (!ended) {");
        s.line("b.append(c);");
        s.line("}");
        s.line("}");
        s.line("return b.toString();");
        s.line("}");
        s.line("");
        s.doc("Writes {@code unsigned char name[size]}: exactly size bytes, each a 4-byte int (0..255).");
        s.line("static void writeBytes(XdrWriter w, byte[] value, int size) throws IOException {");
        s.line("if (value == null || value.length != size) {");
        s.line("throw w.marshalError(\"unsigned char[\" + size + \"] needs \" + size + \" bytes, not \"");
        s.line("        + (value == null ? \"null\" : value.length));");
        s.line("}");
        s.line("for (byte b : value) {");
        s.line("w.writeInt(b & 0xFF);");
        s.line("}");
        s.line("}");
        s.line("");
        s.doc("Reads {@code unsigned char name[size]}: size 4-byte ints, each's low byte.");
        s.line("static byte[] readBytes(XdrReader r, int size) throws IOException {");
        s.line("byte[] value = new byte[size];");
        s.line("for (int i = 0; i < size; i++) {");
        s.line("value[i] = (byte) r.readInt();");
        s.line("}");
        s.line("return value;");
        s.line("}");
        s.line("");
        s.doc("@return a codec of {@code unsigned char name[size]}");
        s.line("static XdrCodec<byte[]> bytes(int size) {");
        s.line("return XdrCodec.of((w, v) -> writeBytes(w, v, size), r -> readBytes(r, size));");
        s.line("}");
        s.line("");
        s.doc("Writes {@code opaque name[size]}: exactly size bytes, padded to 4.");
        s.line("static void writeOpaqueFixed(XdrWriter w, byte[] value, int size) throws IOException {");
        s.line("if (value == null || value.length != size) {");
        s.line("throw w.marshalError(\"opaque[\" + size + \"] needs \" + size + \" bytes, not \"");
        s.line("        + (value == null ? \"null\" : value.length));");
        s.line("}");
        s.line("w.writeOpaqueFixed(value);");
        s.line("}");
        s.line("");
        s.doc("@return a codec of {@code char name[size]} (see writeChars/readChars)");
        s.line("static XdrCodec<String> chars(int size) {");
        s.line("return XdrCodec.of((w, v) -> writeChars(w, v, size), r -> readChars(r, size));");
        s.line("}");
        s.line("");
        s.doc("@return a codec of {@code opaque name[size]}");
        s.line("static XdrCodec<byte[]> opaqueFixed(int size) {");
        s.line("return XdrCodec.of((w, v) -> writeOpaqueFixed(w, v, size), r -> r.readOpaqueFixed(size));");
        s.line("}");
        s.line("");
        s.doc("@return a codec of a fixed array {@code T name[size]} (as an element of another array)");
        s.line("static <T> XdrCodec<List<T>> fixedArray(int size, XdrCodec<T> element) {");
        s.line("return XdrCodec.of((w, v) -> w.writeFixedArray(v, size, element),");
        s.line("        r -> r.readFixedArray(size, element));");
        s.line("}");
        s.line("");
        s.line("private static <V> V require(XdrWriter w, V value, String type) throws RxException {");
        s.line("if (value == null) {");
        s.line("throw w.marshalError(\"null \" + type);");
        s.line("}");
        s.line("return value;");
        s.line("}");
        if (withProcs) {
            callHelpers(s, e, withSplit);
        }
        s.line("}");
        return s.toString();
    }

    private void callHelpers(Src s, String e, boolean withSplit) {
        s.line("");
        s.doc("A proc's name (with its package prefix) and opcode, for calls and error messages.");
        s.line("record Proc(String name, int opcode) {");
        s.line("}");
        s.line("");
        s.doc("The empty argument or result list.");
        s.line("static final XdrMarshaller NOTHING = w -> { };");
        s.line("");
        s.doc("Reads no results.");
        s.line("static final XdrUnmarshaller<Void> NO_RESULTS = r -> null;");
        s.line("");
        s.doc("Starts a call to the proc (the target writes its opcode, so interceptors and metrics see it) and writes",
                "the arguments; the caller reads the results (finish).",
                "deadline: the call's whole life, or null for none.");
        s.line("static RxCall start(RxCallTarget target, Duration deadline, Proc proc, XdrMarshaller arguments)");
        s.line("        throws IOException {");
        s.line("RxCallOptions options = RxCallOptions.DEFAULT.withOpcode(proc.opcode());");
        s.line("RxCall call;");
        s.line("try {");
        s.line("call = target.newCall(deadline == null ? options : options.withTimeout(deadline));");
        s.line("} catch (RxException ex) {");
        s.line("throw named(proc, ex, XdrSide.CLIENT.marshalCode());");
        s.line("}");
        s.line("// Failures read from the call's own streams (bulk data) name the proc too.");
        s.line("call.describeFailures(ex -> ex instanceof " + e + " ? ex : new " + e
                + "(proc.name(), proc.opcode(), ex));");
        s.line("try {");
        s.line("arguments.marshal(new XdrWriter(call.output(), XdrSide.CLIENT));");
        s.line("return call;");
        s.line("} catch (IOException | RuntimeException ex) {");
        s.line("throw fail(call, proc, ex, XdrSide.CLIENT.marshalCode());");
        s.line("}");
        s.line("}");
        s.line("");
        if (withSplit) {
            asyncSplitHelpers(s, e);
        }
        s.doc("Ends the request, reads the results and closes the call; a failure aborts it (RXGEN_CC_UNMARSHAL",
                "−451 for bad results) and is rethrown naming the proc.");
        s.line("static <T> T finish(RxCall call, Proc proc, XdrUnmarshaller<T> results) throws IOException {");
        s.line("try {");
        s.line("call.output().close();");
        s.line("T value = results.unmarshal(new XdrReader(call.input(), XdrSide.CLIENT));");
        s.line("call.close();");
        s.line("return value;");
        s.line("} catch (IOException | RuntimeException ex) {");
        s.line("throw fail(call, proc, ex, XdrSide.CLIENT.unmarshalCode());");
        s.line("}");
        s.line("}");
        s.line("");
        s.doc("The call options for a deadline (the call's whole life), or the defaults for null; a deadline that is",
                "not positive throws IllegalArgumentException.");
        s.line("static RxCallOptions options(Duration deadline) {");
        s.line("return deadline == null ? RxCallOptions.DEFAULT : RxCallOptions.timeout(deadline);");
        s.line("}");
        s.line("");
        s.doc("A whole blocking call: the target writes the opcode and the arguments and reads the results (a pool",
                "repeats it when its retry policy marks the opcode idempotent); a failure is rethrown naming the proc.",
                "deadline: the whole life of the call (and its repeats), or null for none.");
        s.line("static <T> T call(RxCallTarget target, Duration deadline, Proc proc, XdrMarshaller arguments,");
        s.line("        XdrUnmarshaller<T> results) throws IOException {");
        s.line("XdrMarshaller marshal = marshalling(proc, arguments);");
        s.line("try {");
        s.line("return target.call(proc.opcode(), marshal, results, options(deadline));");
        s.line("} catch (IOException | RuntimeException ex) {");
        s.line("throw named(proc, ex, XdrSide.CLIENT.unmarshalCode());");
        s.line("}");
        s.line("}");
        s.line("");
        s.doc("A whole call without blocking, repeated as {@code call} is; the future fails with the proc named.",
                "Ending it early ends the call: cancel or completeOnTimeout with RX_USER_ABORT −6, orTimeout with",
                "RX_CALL_TIMEOUT −3. deadline: the whole life, or null for none.");
        s.line("static <T> CompletableFuture<T> callAsync(RxCallTarget target, Duration deadline, Proc proc,");
        s.line("        XdrMarshaller arguments, XdrUnmarshaller<T> results) {");
        s.line("XdrMarshaller marshal = marshalling(proc, arguments);");
        s.line("CompletableFuture<T> typed;");
        s.line("try {");
        s.line("typed = target.callAsync(proc.opcode(), marshal, results, options(deadline));");
        s.line("} catch (RuntimeException ex) {");
        s.line("return CompletableFuture.failedFuture(named(proc, ex, XdrSide.CLIENT.marshalCode()));");
        s.line("}");
        s.line("CompletableFuture<T> result = new CompletableFuture<>();");
        s.line("typed.whenComplete((v, t) -> {");
        s.line("if (t == null) {");
        s.line("result.complete(v);");
        s.line("} else {");
        s.line("Throwable cause = t instanceof CompletionException && t.getCause() != null ? t.getCause() : t;");
        s.line("result.completeExceptionally(cause instanceof CancellationException ? cause");
        s.line("        : named(proc, cause, XdrSide.CLIENT.unmarshalCode()));");
        s.line("}");
        s.line("});");
        s.line("// Ended early by the caller (cancel, orTimeout, completeOnTimeout): the call ends the same way.");
        s.line("result.whenComplete((v, t) -> {");
        s.line("if (t == null) {");
        s.line("typed.complete(v);");
        s.line("} else {");
        s.line("typed.completeExceptionally(t);");
        s.line("}");
        s.line("});");
        s.line("return result;");
        s.line("}");
        s.line("");
        s.doc("The arguments' marshaller with its own failures named as marshalling ones (RXGEN_CC_MARSHAL −450),",
                "so the target aborts the call with that code and the caller sees the proc.");
        s.line("private static XdrMarshaller marshalling(Proc proc, XdrMarshaller arguments) {");
        s.line("return w -> {");
        s.line("try {");
        s.line("arguments.marshal(w);");
        s.line("} catch (IOException | RuntimeException ex) {");
        s.line("throw named(proc, ex, XdrSide.CLIENT.marshalCode());");
        s.line("}");
        s.line("};");
        s.line("}");
        s.line("");
        s.doc("Aborts a client call this side failed (a peer's abort needs none) and releases it.");
        s.line("private static IOException fail(RxCall call, Proc proc, Exception ex, int code) {");
        s.line("if (!(ex instanceof RxException rx && rx.remote())) {");
        s.line("call.abort(ex instanceof RxException rx ? rx.code()");
        s.line("        : ex instanceof InterruptedIOException ? -6 /* RX_USER_ABORT */ : code);");
        s.line("}");
        s.line("try {");
        s.line("call.close();");
        s.line("} catch (IOException ignored) {");
        s.line("// the call failed already; the first failure is the one reported");
        s.line("}");
        s.line("return named(proc, ex, code);");
        s.line("}");
        s.line("");
        s.doc("The same failure with the proc's name and opcode in front: an RxException keeps its code and",
                "remote flag; an interrupt stays an InterruptedIOException; another exception becomes an",
                "RxException with {@code code}.");
        s.line("static IOException named(Proc proc, Throwable ex, int code) {");
        s.line("if (ex instanceof " + e + " done) {");
        s.line("return done;");
        s.line("}");
        s.line("if (ex instanceof RxException rx) {");
        s.line("return new " + e + "(proc.name(), proc.opcode(), rx);");
        s.line("}");
        s.line("String message = proc.name() + \" (opcode \" + proc.opcode() + \"): \" + ex;");
        s.line("if (ex instanceof InterruptedIOException) {");
        s.line("InterruptedIOException named = new InterruptedIOException(message);");
        s.line("named.initCause(ex);");
        s.line("return named;");
        s.line("}");
        s.line("if (ex instanceof IOException) {");
        s.line("return new IOException(message, ex);");
        s.line("}");
        s.line("return new " + e + "(proc.name(), proc.opcode(),");
        s.line("        RxException.local(code, ex.toString(), ex));");
        s.line("}");
    }

    private String exception() {
        String e = ctx.exceptionClass();
        Src s = new Src();
        s.doc("A failed call of a proc from " + ctx.fileName() + ": the underlying RxException's abort code,",
                "remote flag and reason, with the proc's name and opcode in the message, e.g.",
                "{@code KS_Echo (opcode 1): call aborted by peer: RXGEN_SS_UNMARSHAL (-453)}. The original exception",
                "is the cause.");
        s.line("public final class " + e + " extends RxException {");
        s.line("private static final long serialVersionUID = 1L;");
        s.line("");
        s.line("private final String proc;");
        s.line("private final int opcode;");
        s.line("");
        s.doc("@param proc the proc's name with its package prefix", "@param opcode the proc's opcode",
                "@param cause the failure: its code, remote flag, reason and suppressed exceptions (a pool's earlier",
                "    attempts) are kept");
        s.line(e + "(String proc, int opcode, RxException cause) {");
        s.line("super(cause.code(), cause.remote(), cause.reason(), proc + \" (opcode \" + opcode + \"): \" + cause.getMessage(),");
        s.line("        cause);");
        s.line("this.proc = proc;");
        s.line("this.opcode = opcode;");
        s.line("for (Throwable earlier : cause.getSuppressed()) {");
        s.line("addSuppressed(earlier);");
        s.line("}");
        s.line("}");
        s.line("");
        s.doc("@return the proc's name with its package prefix, e.g. {@code KS_Echo}");
        s.line("public String proc() {");
        s.line("return proc;");
        s.line("}");
        s.line("");
        s.doc("@return the proc's opcode");
        s.line("public int opcode() {");
        s.line("return opcode;");
        s.line("}");
        s.line("}");
        return s.toString();
    }

    /** The helpers of split procs' async form: start a call, and unwrap a stage's failure. */
    private void asyncSplitHelpers(Src s, String e) {
        s.doc("Starts a call to the proc in its async form (RxAsyncStreams) and sends the arguments; nothing waits.",
                "deadline: the call's whole life, or null for none.");
        s.line("static RxAsyncStreams startAsync(RxCallTarget target, Duration deadline, Proc proc,");
        s.line("        XdrMarshaller arguments) throws IOException {");
        s.line("byte[] bytes;");
        s.line("try {");
        s.line("bytes = XdrMarshaller.toBytes(XdrSide.CLIENT, arguments);");
        s.line("} catch (IOException | RuntimeException ex) {");
        s.line("throw named(proc, ex, XdrSide.CLIENT.marshalCode());");
        s.line("}");
        s.line("RxCall call = start(target, deadline, proc, NOTHING);");
        s.line("try {");
        s.line("RxAsyncStreams streams = call.async();");
        s.line("streams.send(bytes);");
        s.line("return streams;");
        s.line("} catch (IOException | RuntimeException ex) {");
        s.line("throw fail(call, proc, ex, XdrSide.CLIENT.marshalCode());");
        s.line("}");
        s.line("}");
        s.line("");
        s.doc("A split proc's IN arguments as a server decodes them from the stream: failures named, bad bytes with",
                "RXGEN_SS_UNMARSHAL (−453).");
        s.line("static <T> CompletableFuture<T> arguments(Proc proc, CompletableFuture<T> decoded) {");
        s.line("return decoded.exceptionallyCompose(ex -> CompletableFuture.failedFuture(");
        s.line("        named(proc, unwrap(ex), XdrSide.SERVER.unmarshalCode())));");
        s.line("}");
        s.line("");
        s.doc("The failure inside a stage's CompletionException.");
        s.line("static Throwable unwrap(Throwable t) {");
        s.line("return t instanceof CompletionException && t.getCause() != null ? t.getCause() : t;");
        s.line("}");
        s.line("");
    }

    private String asyncSplit() {
        String c = ctx.asyncSplitClass();
        String x = ctx.xdrClass();
        Src s = new Src();
        s.doc("A split proc in its async form, between its phases: the opcode and the IN arguments are sent. Send or",
                "receive the bulk data on {@link #streams()} (Flow publishers with back-pressure, no thread waits;",
                "docs/rxgen.md \"Split procs\"), then {@link #end()} gives the OUT results. Every failure names the",
                "proc. Thread-safe.",
                "",
                "@param <T> the results' type ({@code Void} when the proc has no OUT parameters)");
        s.line("public final class " + c + "<T> {");
        s.line("private final RxAsyncStreams streams;");
        s.line("private final " + x + ".Proc proc;");
        s.line("private final XdrUnmarshaller<T> results;");
        s.line("private boolean ended;");
        s.line("");
        s.line(c + "(RxAsyncStreams streams, " + x + ".Proc proc, XdrUnmarshaller<T> results) {");
        s.line("this.streams = streams;");
        s.line("this.proc = proc;");
        s.line("this.results = results;");
        s.line("}");
        s.line("");
        s.doc("@return the call's async streams, for bulk data between the IN and OUT phases (the call itself is",
                "    {@code streams().call()})");
        s.line("public RxAsyncStreams streams() {");
        s.line("return streams;");
        s.line("}");
        s.line("");
        s.doc("Ends the request (after the sends made before), receives the OUT results after the receives made",
                "before, and completes with them once the call has ended. Ending the future early ends the call:",
                "{@code orTimeout} with RX_CALL_TIMEOUT (−3), {@code cancel} with RX_USER_ABORT (−6).",
                "",
                "@return a future of the results (null for a proc without OUT parameters), completed on the endpoint's",
                "    callback executor; exceptionally an RxException (" + ctx.exceptionClass() + ") naming the proc: the",
                "    peer's abort, RXGEN_CC_UNMARSHAL (−451) for bad results (the call is aborted), or another failure",
                "@throws IllegalStateException if called twice");
        s.line("public CompletableFuture<T> end() {");
        s.line("synchronized (this) {");
        s.line("if (ended) {");
        s.line("throw new IllegalStateException(proc.name() + \" already ended\");");
        s.line("}");
        s.line("ended = true;");
        s.line("}");
        s.line("CompletableFuture<T> result = new CompletableFuture<>();");
        s.line("streams.finish();");
        s.line("CompletableFuture<T> value = streams.receiveXdr(results);");
        s.line("value.thenCompose(v -> streams.receiveRest()) // a reply longer than its results: read and dropped");
        s.line("        .thenCompose(rest -> streams.call().completion())");
        s.line("        .whenCompleteAsync((v, t) -> {");
        s.line("            if (t == null) {");
        s.line("                result.complete(value.join());");
        s.line("            } else {");
        s.line("                Throwable cause = " + x + ".unwrap(t);");
        s.line("                result.completeExceptionally(cause instanceof CancellationException ? cause");
        s.line("                        : " + x + ".named(proc, cause, XdrSide.CLIENT.unmarshalCode()));");
        s.line("            }");
        s.line("        }, streams.callbackExecutor());");
        s.line("return streams.abortOnFailure(result);");
        s.line("}");
        s.line("");
        s.doc("Cancels the call (RX_USER_ABORT −6) unless it has ended; pending sends and receives fail.");
        s.line("public void cancel() {");
        s.line("streams.call().cancel();");
        s.line("}");
        s.line("}");
        return s.toString();
    }

    private String split() {
        String c = ctx.splitClass();
        String x = ctx.xdrClass();
        Src s = new Src();
        s.doc("A split proc between its phases: the opcode and the IN arguments have been written. Stream bulk data",
                "on {@link #call()} (write to its output, or read its input), then {@link #end()} reads the OUT",
                "results and closes the call. Closing without {@code end()} cancels the call (RX_USER_ABORT −6).",
                "Not thread-safe.",
                "",
                "@param <T> the results' type ({@code Void} when the proc has no OUT parameters)");
        s.line("public final class " + c + "<T> implements AutoCloseable {");
        s.line("private final RxCall call;");
        s.line("private final " + x + ".Proc proc;");
        s.line("private final XdrUnmarshaller<T> results;");
        s.line("private boolean ended;");
        s.line("");
        s.line(c + "(RxCall call, " + x + ".Proc proc, XdrUnmarshaller<T> results) {");
        s.line("this.call = call;");
        s.line("this.proc = proc;");
        s.line("this.results = results;");
        s.line("}");
        s.line("");
        s.doc("@return the call, for bulk data between the IN and OUT phases");
        s.line("public RxCall call() {");
        s.line("return call;");
        s.line("}");
        s.line("");
        s.doc("Ends the request if still open, reads the OUT results and closes the call.", "",
                "@return the results (null for a proc without OUT parameters)",
                "@throws IOException an RxException (" + ctx.exceptionClass() + ") naming the proc: the peer's abort,",
                "    RXGEN_CC_UNMARSHAL (−451) for bad results, or another call failure",
                "@throws IllegalStateException if called twice");
        s.line("public T end() throws IOException {");
        s.line("if (ended) {");
        s.line("throw new IllegalStateException(proc.name() + \" already ended\");");
        s.line("}");
        s.line("ended = true;");
        s.line("return " + x + ".finish(call, proc, results);");
        s.line("}");
        s.line("");
        s.doc("Cancels the call if {@link #end()} was not called; otherwise does nothing.");
        s.line("@Override");
        s.line("public void close() {");
        s.line("if (!ended) {");
        s.line("ended = true;");
        s.line("call.cancel();");
        s.line("try {");
        s.line("call.close();");
        s.line("} catch (IOException ignored) {");
        s.line("// cancelled by this side: nothing more to report");
        s.line("}");
        s.line("}");
        s.line("}");
        s.line("}");
        return s.toString();
    }
}
