// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.gen;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.List;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rx4j.gen.java.JavaGenerator;
import org.rx4j.rpc.xdr.XdrMarshaller;
import org.rx4j.rpc.xdr.XdrReader;
import org.rx4j.rpc.xdr.XdrSide;
import org.rx4j.rpc.xdr.XdrUnmarshaller;
import org.rx4j.rpc.xdr.XdrWriter;

/**
 * C names that are Java keywords, Object methods or the generated code's own names still give compiling code; a
 * union arm with several labels keeps its discriminant.
 */
class AwkwardNamesTest {
    @Test
    void collidingNamesAreRenamedAndCompile(@TempDir Path dir) throws Exception {
        Map<String, String> g = GeneratedCode.generate("xg/awkward.xg", "");
        assertTrue(g.containsKey("ListType"), g.keySet().toString());       // java.util.List is imported
        assertTrue(g.get("ListType").contains("int class_, int hashCode_, String record_"), g.get("ListType"));
        assertTrue(g.get("AwkwardClient").contains("connectionRpc(int deadline, int connection, int writer, int call,"
                + " Duration deadline2)"), g.get("AwkwardClient"));
        assertTrue(g.get("AwkwardClient").contains("getClass_("), g.get("AwkwardClient"));
        // A proc named Close does not collide with AutoCloseable.close().
        assertTrue(g.get("AwkwardClient").contains("public void closeRpc(int how) throws IOException"),
                g.get("AwkwardClient"));
        assertTrue(g.get("AwkwardClient").contains("public void close() {"), g.get("AwkwardClient"));
        assertTrue(g.get("U").contains("record Which(int whichValue)"), g.get("U"));
        assertTrue(g.get("U").contains("record CaseMinus1()"), g.get("U"));
        assertTrue(g.get("M").contains("record Both(int k, int both) implements M"), g.get("M"));
        assertTrue(g.get("M").contains("case 1, 2 -> new Both(discriminant, reader.readInt());"), g.get("M"));
        assertTrue(g.get("M").contains("record Default(int k) implements M"), g.get("M"));
        assertTrue(g.get("M").contains("Arrays.equals(raw, o.raw)"), g.get("M"));   // byte[] arm compared by content
        ClassLoader loader = GeneratedCode.compile(dir, JavaGenerator.write(g, "", dir.resolve("src")));

        // Round trips through the generated codec: the stored discriminant goes on the wire.
        Class<?> m = loader.loadClass("M");
        Method encode = m.getMethod("encode", XdrWriter.class, m);
        Method decode = m.getMethod("decode", XdrReader.class);
        for (Object value : List.of(
                loader.loadClass("M$Both").getConstructor(int.class, int.class).newInstance(2, 7),
                loader.loadClass("M$Raw").getConstructor(byte[].class).newInstance((Object) new byte[] {1, 2, 3}),
                loader.loadClass("M$Default").getConstructor(int.class).newInstance(-9))) {
            byte[] bytes = XdrMarshaller.toBytes(XdrSide.CLIENT, w -> GeneratedCode.invoke(encode, w, value));
            assertEquals(value,
                    XdrUnmarshaller.fromBytes(XdrSide.SERVER, bytes, r -> GeneratedCode.invoke(decode, r)));
        }
        Object both27 = loader.loadClass("M$Both").getConstructor(int.class, int.class).newInstance(2, 7);
        byte[] both = XdrMarshaller.toBytes(XdrSide.CLIENT, w -> GeneratedCode.invoke(encode, w, both27));
        assertArrayEquals(new byte[] {0, 0, 0, 2, 0, 0, 0, 7}, both);
        InvocationTargetException bad = assertThrows(InvocationTargetException.class,
                () -> loader.loadClass("M$Both").getConstructor(int.class, int.class).newInstance(3, 7));
        assertInstanceOf(IllegalArgumentException.class, bad.getCause());
    }
}
