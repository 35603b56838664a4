// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.gen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;
import org.rx4j.gen.java.JavaGenerator;

/**
 * The kitchen sink (src/test/resources/xg/kitchen.xg, every construct rx-gen supports): its generated sources
 * compile with {@code javac -Xlint:all -Werror}, and a Java client talks to a Java server over rx-core on
 * 127.0.0.1 for every proc (the scenarios are src/test/resources/kitchen/KitchenLoopback.java, compiled with
 * the generated code).
 */
class KitchenSinkTest {
    private static final String PACKAGE = "org.rx4j.gen.kitchen";

    @TempDir
    static Path dir;

    private static Map<String, String> generated;
    private static AutoCloseable loopback;
    private static Class<?> scenarios;

    @BeforeAll
    static void generateAndCompile() throws Exception {
        generated = GeneratedCode.generate("xg/kitchen.xg", PACKAGE);
        Path src = dir.resolve("src");
        List<Path> files = new ArrayList<>(JavaGenerator.write(generated, PACKAGE, src));
        Path scenario = src.resolve(PACKAGE.replace('.', '/')).resolve("KitchenLoopback.java");
        Files.writeString(scenario, GeneratedCode.resource("kitchen/KitchenLoopback.java"), StandardCharsets.UTF_8);
        files.add(scenario);
        ClassLoader loader = GeneratedCode.compile(dir, files);
        scenarios = loader.loadClass(PACKAGE + ".KitchenLoopback");
        loopback = (AutoCloseable) scenarios.getConstructor().newInstance();
    }

    @AfterAll
    static void close() throws Exception {
        if (loopback != null) {
            loopback.close();
        }
    }

    @Test
    void generatesOneClassPerTypeAndPerRole() {
        assertEquals(List.of("KitchenAsyncSplitCall", "KitchenCallException", "KitchenConstants", "KitchenSplitCall",
                "KitchenXdr", "KsAsyncDispatcher", "KsAsyncServer", "KsClient", "KsColor", "KsDispatcher", "KsEchoResult",
                "KsEverything", "KsInner", "KsNode", "KsOpcodes", "KsPoint", "KsServer", "KsShape", "KsShapesResult",
                "KsTransferResult"),
                List.copyOf(generated.keySet()));
        String client = generated.get("KsClient");
        for (String m : List.of("echo(int a, String n)", "echo(int a, String n, Duration deadline)",
                "echoAsync(int a, String n)", "echoAsync(int a, String n, Duration deadline)",
                "KitchenSplitCall<KsTransferResult> transfer(int length)",
                "KitchenSplitCall<KsTransferResult> transfer(int length, Duration deadline)",
                "KitchenAsyncSplitCall<KsTransferResult> transferAsync(int length)",
                "KitchenAsyncSplitCall<KsTransferResult> transferAsync(int length, Duration deadline)")) {
            assertTrue(client.contains(m), m);
        }
        // Only rx-core's public API and the JDK: no rx-gen runtime, no rx-core internals.
        for (String source : generated.values()) {
            source.lines().filter(l -> l.startsWith("import ")).forEach(l -> assertTrue(
                    l.matches("import (java\\.[\\w.]+|org\\.rx4j\\.rpc\\.\\w+"
                            + "|org\\.rx4j\\.rpc\\.(xdr|channel|errors)\\.\\w+|org\\.rx4j\\.security\\.\\w+);"), l));
        }
    }

    /**
     * A C client built from Debian rxgen's stubs of the same file ({@code scripts/rxgen/cross-check.sh} builds it
     * and passes {@code -Drx4j.kitchen.cclient=PATH}) calls every proc of this Java server; skipped otherwise.
     */
    @Test
    void cClientAgainstTheJavaServer() throws Exception {
        String client = System.getProperty("rx4j.kitchen.cclient", "");
        assumeTrue(!client.isBlank(), "no C client given (-Drx4j.kitchen.cclient=PATH)");
        int port = (int) scenarios.getMethod("serverPort").invoke(loopback);
        Process p = new ProcessBuilder(client, "127.0.0.1", Integer.toString(port)).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), out);
        assertEquals(0, p.exitValue(), out);
        assertTrue(out.contains("0 failure(s)"), out);
    }

    @TestFactory
    Stream<DynamicTest> everyProcOverLoopback() {
        Method[] checks = Arrays.stream(scenarios.getMethods())
                .filter(m -> m.getName().startsWith("check") && !Modifier.isStatic(m.getModifiers()))
                .sorted(Comparator.comparing(Method::getName)).toArray(Method[]::new);
        assertTrue(checks.length >= 10, "scenarios found: " + checks.length);
        return Arrays.stream(checks).map(m -> DynamicTest.dynamicTest(m.getName(), () -> {
            try {
                m.invoke(loopback);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        }));
    }
}
