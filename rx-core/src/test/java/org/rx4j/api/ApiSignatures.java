// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.api;

import java.io.IOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The text form of a public API: one line per public type of the given packages (its modifiers, kind, name, type
 * parameters, supertypes), then one indented line per public or protected constructor, method and field, with
 * generic types, sorted so that the text changes only when the API does. Read by reflection from compiled classes;
 * parameter names, annotations and docs are not part of it.
 */
final class ApiSignatures {
    private ApiSignatures() {
    }

    /**
     * @param classes a compiled classes directory (its package folders hold the .class files)
     * @param packages the packages to describe (their sub-packages only when listed themselves)
     * @return the API text, ending in a newline
     * @throws IOException if the directory cannot be listed
     */
    static String of(Path classes, List<String> packages) throws IOException {
        StringBuilder out = new StringBuilder();
        for (String pkg : packages) {
            Path dir = classes.resolve(pkg.replace('.', '/'));
            List<String> names;
            try (Stream<Path> files = Files.list(dir)) {
                names = files.map(p -> p.getFileName().toString())
                        .filter(n -> n.endsWith(".class") && !n.equals("package-info.class"))
                        .map(n -> pkg + "." + n.substring(0, n.length() - ".class".length()))
                        .sorted().collect(Collectors.toList());
            }
            for (String name : names) {
                Class<?> c;
                try {
                    c = Class.forName(name, false, ApiSignatures.class.getClassLoader());
                } catch (ClassNotFoundException e) {
                    throw new IOException("cannot load " + name, e);
                }
                if (visible(c)) {
                    describe(c, out);
                }
            }
        }
        return out.toString();
    }

    /** A type is API when it and every type enclosing it are public (or protected, nested in a public one). */
    private static boolean visible(Class<?> c) {
        if (c.isSynthetic() || c.isAnonymousClass() || c.isLocalClass()) {
            return false;
        }
        for (Class<?> t = c; t != null; t = t.getDeclaringClass()) {
            int m = t.getModifiers();
            if (!Modifier.isPublic(m) && !(t.getDeclaringClass() != null && Modifier.isProtected(m))) {
                return false;
            }
        }
        return true;
    }

    private static void describe(Class<?> c, StringBuilder out) {
        StringBuilder head = new StringBuilder(Modifier.toString(c.getModifiers() & ~Modifier.INTERFACE
                & ~Modifier.ABSTRACT & Modifier.classModifiers()));
        if (Modifier.isAbstract(c.getModifiers()) && !c.isInterface()) {
            head.append(" abstract");
        }
        head.append(' ').append(kind(c)).append(' ').append(c.getTypeName())
                .append(typeParameters(c.getTypeParameters()).stripTrailing());
        Type sup = c.getGenericSuperclass();
        if (sup != null && sup != Object.class && sup != Record.class && c.getSuperclass() != Enum.class) {
            head.append(" extends ").append(sup.getTypeName());
        }
        Type[] ifaces = c.getGenericInterfaces();
        if (ifaces.length > 0) {
            head.append(c.isInterface() ? " extends " : " implements ").append(
                    Arrays.stream(ifaces).map(Type::getTypeName).collect(Collectors.joining(", ")));
        }
        out.append(head.toString().strip()).append('\n');
        Set<String> members = new TreeSet<>();
        for (Constructor<?> k : c.getDeclaredConstructors()) {
            if (api(k.getModifiers()) && !k.isSynthetic() && !c.isEnum()) {
                members.add(modifiers(k) + typeParameters(k.getTypeParameters()) + c.getSimpleName()
                        + parameters(k) + exceptions(k));
            }
        }
        for (Method m : c.getDeclaredMethods()) {
            if (api(m.getModifiers()) && !m.isSynthetic() && !m.isBridge()) {
                members.add(modifiers(m) + (m.isDefault() ? "default " : "") + typeParameters(m.getTypeParameters())
                        + m.getGenericReturnType().getTypeName() + " " + m.getName() + parameters(m) + exceptions(m));
            }
        }
        for (Field f : c.getDeclaredFields()) {
            if (api(f.getModifiers()) && !f.isSynthetic()) {
                members.add(Modifier.toString(f.getModifiers() & Modifier.fieldModifiers()) + " "
                        + f.getGenericType().getTypeName() + " " + f.getName());
            }
        }
        for (String m : members) {
            out.append("  ").append(m.strip()).append('\n');
        }
    }

    private static boolean api(int modifiers) {
        return Modifier.isPublic(modifiers) || Modifier.isProtected(modifiers);
    }

    private static String kind(Class<?> c) {
        return c.isAnnotation() ? "@interface" : c.isInterface() ? "interface" : c.isEnum() ? "enum"
                : c.isRecord() ? "record" : "class";
    }

    private static String modifiers(Executable e) {
        int mask = e instanceof Method ? Modifier.methodModifiers() : Modifier.constructorModifiers();
        int m = e.getModifiers() & mask;
        if (e.getDeclaringClass().isInterface()) {
            m &= ~Modifier.ABSTRACT & ~Modifier.PUBLIC; // implied in an interface
        }
        String s = Modifier.toString(m);
        return s.isEmpty() ? "" : s + " ";
    }

    private static String typeParameters(TypeVariable<?>[] vars) {
        if (vars.length == 0) {
            return "";
        }
        List<String> out = new ArrayList<>();
        for (TypeVariable<?> v : vars) {
            List<String> bounds = Arrays.stream(v.getBounds()).filter(b -> b != Object.class)
                    .map(Type::getTypeName).collect(Collectors.toList());
            out.add(v.getName() + (bounds.isEmpty() ? "" : " extends " + String.join(" & ", bounds)));
        }
        return "<" + String.join(", ", out) + "> ";
    }

    private static String parameters(Executable e) {
        return Arrays.stream(e.getGenericParameterTypes()).map(Type::getTypeName)
                .collect(Collectors.joining(", ", "(", ")"));
    }

    private static String exceptions(Executable e) {
        Type[] t = e.getGenericExceptionTypes();
        return t.length == 0 ? "" : Arrays.stream(t).map(Type::getTypeName)
                .collect(Collectors.joining(", ", " throws ", ""));
    }

    /**
     * @param before the recorded text
     * @param after the text now
     * @return the lines only one of them has, each member with its type: "- " for a recorded line that went, "+ "
     *     for a new one
     */
    static String diff(String before, String after) {
        Set<String> a = keyed(before);
        Set<String> b = keyed(after);
        StringBuilder out = new StringBuilder();
        for (String line : a) {
            if (!b.contains(line)) {
                out.append("- ").append(line).append('\n');
            }
        }
        for (String line : b) {
            if (!a.contains(line)) {
                out.append("+ ").append(line).append('\n');
            }
        }
        return out.toString();
    }

    /** @return the text's lines, each member line prefixed by its type's line */
    private static Set<String> keyed(String text) {
        Set<String> out = new LinkedHashSet<>();
        String owner = "";
        for (String line : text.split("\n")) {
            if (line.startsWith(" ")) {
                out.add(owner + " ::" + line);
            } else {
                owner = line;
                out.add(line);
            }
        }
        return out;
    }
}
