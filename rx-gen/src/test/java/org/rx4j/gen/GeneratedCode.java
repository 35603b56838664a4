// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.gen;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.rx4j.gen.java.JavaGenerator;
import org.rx4j.gen.xg.Parser;
import org.rx4j.gen.xg.XgException;
import org.rx4j.gen.xg.XgFile;

/** Test helper: parse a test resource, generate its Java, compile it with {@code -Xlint:all -Werror}, load it. */
final class GeneratedCode {
    private GeneratedCode() {
    }

    /**
     * @param resource a test resource path, e.g. {@code xg/kitchen.xg}
     * @return its text
     */
    static String resource(String resource) {
        try (var in = GeneratedCode.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalArgumentException("no test resource " + resource);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * @param resource an .xg test resource
     * @param javaPackage the generated package
     * @return class name to source
     */
    static Map<String, String> generate(String resource, String javaPackage) throws XgException {
        XgFile file = Parser.parse(resource.substring(resource.lastIndexOf('/') + 1), resource(resource));
        return JavaGenerator.generate(file, javaPackage);
    }

    /**
     * Compiles sources with javac {@code -Xlint:all -Werror} (any warning fails the test) and loads them.
     *
     * @param dir a scratch directory
     * @param sources files to compile (generated ones and test scenario sources)
     * @return a class loader over the compiled classes, child of the test's
     */
    static ClassLoader compile(Path dir, List<Path> sources) throws IOException {
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        Path classes = Files.createDirectories(dir.resolve("classes"));
        List<String> args = new ArrayList<>(List.of("-Xlint:all", "-Werror", "-proc:none", "--release", "17",
                "-encoding", "UTF-8", "-d", classes.toString(), "-cp", classPath()));
        sources.forEach(p -> args.add(p.toString()));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int rc = javac.run(null, out, out, args.stream().toArray(String[]::new));
        if (rc != 0) {
            fail("javac -Xlint:all -Werror failed on generated code (exit " + rc + "):\n"
                    + out.toString(StandardCharsets.UTF_8));
        }
        return new URLClassLoader(new URL[] {classes.toUri().toURL()}, GeneratedCode.class.getClassLoader());
    }

    /** The test class path, plus the jars of the classes generated code and scenarios use (surefire may hide them). */
    private static String classPath() {
        Set<String> entries = new LinkedHashSet<>(List.of(System.getProperty("java.class.path").split(File.pathSeparator)));
        for (Class<?> c : List.of(org.rx4j.rpc.RxCall.class, io.netty.buffer.ByteBuf.class,
                org.junit.jupiter.api.Assertions.class, org.opentest4j.AssertionFailedError.class,
                org.apiguardian.api.API.class)) {
            try {
                entries.add(Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI()).toString());
            } catch (URISyntaxException e) {
                throw new IllegalStateException(e);
            }
        }
        return String.join(File.pathSeparator, entries);
    }
    /**
     * Calls a generated static method, unwrapping its IOException.
     *
     * @param method the method
     * @param args its arguments
     * @return what it returned
     * @throws IOException what it threw
     */
    static Object invoke(java.lang.reflect.Method method, Object... args) throws IOException {
        try {
            return method.invoke(null, args);
        } catch (java.lang.reflect.InvocationTargetException e) {
            if (e.getCause() instanceof IOException io) {
                throw io;
            }
            throw new IllegalStateException(e.getCause());
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        }
    }
}
