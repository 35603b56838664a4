// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.gen.java;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.rx4j.gen.xg.Definition;
import org.rx4j.gen.xg.Pos;
import org.rx4j.gen.xg.XgException;
import org.rx4j.gen.xg.XgFile;

/**
 * What every generator of one {@code .xg} file shares: the parsed file, the Java package, the names of the
 * file-wide helper classes, and the import list (computed from each class's body, so no import is unused).
 */
final class GenContext {
    /** Import candidates: a class is imported when its simple name appears in the body. */
    private static final List<String> IMPORTS = List.of(
            "java.io.IOException", "java.io.InterruptedIOException", "java.net.InetSocketAddress",
            "java.time.Duration", "java.util.Arrays", "java.util.List", "java.util.Objects",
            "java.util.concurrent.CancellationException", "java.util.concurrent.CompletableFuture",
            "java.util.concurrent.CompletionException", "java.util.concurrent.CompletionStage",
            "org.rx4j.rpc.RxAsyncStreams", "org.rx4j.rpc.RxCall", "org.rx4j.rpc.RxCallOptions", "org.rx4j.rpc.RxCallTarget",
            "org.rx4j.rpc.RxConnection", "org.rx4j.rpc.RxEndpoint", "org.rx4j.rpc.RxProcNames",
            "org.rx4j.rpc.RxRequest", "org.rx4j.rpc.RxService",
            "org.rx4j.rpc.channel.RxConnectionPool", "org.rx4j.rpc.channel.RxPoolConfig",
            "org.rx4j.rpc.errors.RxException",
            "org.rx4j.rpc.xdr.XdrCodec", "org.rx4j.rpc.xdr.XdrMarshaller", "org.rx4j.rpc.xdr.XdrReader",
            "org.rx4j.rpc.xdr.XdrSide", "org.rx4j.rpc.xdr.XdrUnmarshaller", "org.rx4j.rpc.xdr.XdrWriter",
            "org.rx4j.security.SecurityClass");

    private final XgFile file;
    private final String javaPackage;
    private final String base;
    private final TypeMapper types;

    /**
     * @param file the parsed file
     * @param javaPackage the package of the generated classes ("" for none)
     */
    GenContext(XgFile file, String javaPackage) {
        this.file = file;
        this.javaPackage = javaPackage;
        String name = file.file().replaceAll("^.*[/\\\\]", "").replaceAll("\\.[^.]*$", "");
        this.base = Names.type(name.replaceAll("[^A-Za-z0-9_]", "_"));
        Set<String> consts = file.definitions().stream().filter(d -> d instanceof Definition.Const)
                .map(Definition::name).collect(Collectors.toSet());
        this.types = new TypeMapper(constantsClass(), xdrClass(), consts);
    }

    XgFile file() {
        return file;
    }

    TypeMapper types() {
        return types;
    }

    /** @return the file name without directories, for comments */
    String fileName() {
        return file.file().replaceAll("^.*[/\\\\]", "");
    }

    String constantsClass() {
        return base + "Constants";
    }

    String xdrClass() {
        return base + "Xdr";
    }

    String exceptionClass() {
        return base + "CallException";
    }

    String splitClass() {
        return base + "SplitCall";
    }

    String asyncSplitClass() {
        return base + "AsyncSplitCall";
    }

    /**
     * @param prefix a package prefix, e.g. {@code VL_}, or "" for procs outside any package
     * @return the class-name stem of that package, e.g. {@code Vl}
     */
    String packageBase(String prefix) {
        return prefix.isEmpty() ? base : Names.type(prefix);
    }

    /** @return "file:line" for comments */
    String where(Pos pos) {
        return fileName() + ":" + pos.line();
    }

    /**
     * Adds one class, with its package line, banner and imports.
     *
     * @param out class name to source
     * @param cls the class's simple name
     * @param body the class body, from its Javadoc on
     * @param pos the definition it comes from (for a name clash message), or null
     * @throws XgException if another definition already produced a class of that name
     */
    void put(Map<String, String> out, String cls, String body, Pos pos) throws XgException {
        if (out.containsKey(cls)) {
            throw new XgException(pos != null ? pos : new Pos(file.file(), 1, 1),
                    "two definitions map to the Java class " + cls);
        }
        StringBuilder b = new StringBuilder();
        b.append(JavaGenerator.header(fileName())).append('\n');
        if (!javaPackage.isEmpty()) {
            b.append("package ").append(javaPackage).append(";\n");
        }
        b.append('\n');
        boolean any = false;
        for (String imp : IMPORTS) {
            String simple = imp.substring(imp.lastIndexOf('.') + 1);
            if (Pattern.compile("(?<![.\\w])" + simple + "\\b").matcher(stripComments(body)).find()) {
                b.append("import ").append(imp).append(";\n");
                any = true;
            }
        }
        if (any) {
            b.append('\n');
        }
        b.append(body);
        out.put(cls, b.toString());
    }

    /** Javadoc mentions (e.g. {@link RxException}) must not force an import; only code counts. */
    private static String stripComments(String body) {
        return body.replaceAll("(?s)/\\*.*?\\*/", "").replaceAll("\"(?:[^\"\\\\]|\\\\.)*\"", "\"\"");
    }
}
