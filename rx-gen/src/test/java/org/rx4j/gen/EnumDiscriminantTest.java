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
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rx4j.gen.java.JavaGenerator;
import org.rx4j.rpc.errors.RxException;
import org.rx4j.rpc.xdr.XdrMarshaller;
import org.rx4j.rpc.xdr.XdrReader;
import org.rx4j.rpc.xdr.XdrSide;
import org.rx4j.rpc.xdr.XdrUnmarshaller;
import org.rx4j.rpc.xdr.XdrWriter;

/**
 * A union switched by an enum (docs/rxgen.md, "Limits and differences from rxgen"): its discriminant is an int and
 * its default arm takes any value the other arms do not list, in the enum or not, as rxgen's C does (RFC 4506
 * section 4.15: the default arm takes the unlisted discriminants); the enum itself, as a plain member, stays strict.
 */
class EnumDiscriminantTest {
    @Test
    void defaultArmTakesAnyUnlistedValueWhileTheEnumStaysStrict(@TempDir Path dir) throws Exception {
        Map<String, String> g = GeneratedCode.generate("xg/kinds.xg", "");
        assertTrue(g.get("Value").contains("    int k();"), g.get("Value"));
        assertTrue(g.get("Value").contains("{@link Kind#fromValue} names"), g.get("Value"));
        ClassLoader loader = GeneratedCode.compile(dir, JavaGenerator.write(g, "", dir.resolve("src")));
        Class<?> value = loader.loadClass("Value");
        Method encode = value.getMethod("encode", XdrWriter.class, value);
        Method decode = value.getMethod("decode", XdrReader.class);
        Class<?> dflt = loader.loadClass("Value$Default");
        // K_DELETED (3): in the enum, in no arm. 99: in neither. Both travel on the default arm as they are.
        for (int k : new int[] {3, 99}) {
            Object v = dflt.getConstructor(int.class).newInstance(k);
            byte[] bytes = XdrMarshaller.toBytes(XdrSide.CLIENT, w -> GeneratedCode.invoke(encode, w, v));
            assertArrayEquals(new byte[] {0, 0, 0, (byte) k}, bytes);
            Object back = XdrUnmarshaller.fromBytes(XdrSide.SERVER, bytes, r -> GeneratedCode.invoke(decode, r));
            assertEquals(v, back);
            assertEquals(k, value.getMethod("k").invoke(back));
        }
        InvocationTargetException listed = assertThrows(InvocationTargetException.class,
                () -> dflt.getConstructor(int.class).newInstance(1));   // K_STRING has its own arm
        assertInstanceOf(IllegalArgumentException.class, listed.getCause());

        Method holder = loader.loadClass("Holder").getMethod("decode", XdrReader.class);
        assertEquals("K_DELETED", XdrUnmarshaller.fromBytes(XdrSide.SERVER, new byte[] {0, 0, 0, 3},
                r -> GeneratedCode.invoke(holder, r)).toString().replaceAll(".*only=(\\w+).*", "$1"));
        RxException e = assertThrows(RxException.class, () -> XdrUnmarshaller.fromBytes(XdrSide.SERVER,
                new byte[] {0, 0, 0, 99}, r -> GeneratedCode.invoke(holder, r)));
        assertEquals(XdrSide.SERVER.unmarshalCode(), e.code());
    }
}
