// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.gen;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.rx4j.gen.et.ErrorTable;
import org.rx4j.gen.et.EtParser;
import org.rx4j.gen.java.ErrorTableGenerator;
import org.rx4j.gen.java.JavaGenerator;
import org.rx4j.gen.xg.Parser;
import org.rx4j.gen.xg.Pos;
import org.rx4j.gen.xg.XgException;
import org.rx4j.gen.xg.XgFile;

/**
 * rx-gen's entry point for tools (the CLI and the Maven plugin): parse {@code .xg} files and com_err {@code .et}
 * tables and write their Java classes under a source root, only once every input parsed.
 */
public final class RxGen {
    private RxGen() {
    }

    /**
     * What one run produced.
     *
     * @param files the Java files written, in class name order
     * @param notes what was parsed but not generated ({@code file:line:column: note: ...})
     */
    public record Result(List<Path> files, List<String> notes) {
    }

    /**
     * Parses {@code xg} and writes its classes: {@link #generate(List, Path, String, Function)} for one file.
     *
     * @param xg the {@code .xg} file (UTF-8 or ASCII), or a com_err table ending in {@code .et}
     * @param outputRoot the source root; classes go to the package's directory under it
     * @param javaPackage the generated classes' package, "" for the unnamed package
     * @param displayName the file name used in messages and generated comments (e.g. the path as given)
     * @return the files written and the notes
     * @throws XgException for malformed or unsupported input ({@code file:line:column: ...}); nothing is written
     * @throws IOException if the file cannot be read or an output written
     */
    public static Result generate(Path xg, Path outputRoot, String javaPackage, String displayName)
            throws XgException, IOException {
        return generate(List.of(xg), outputRoot, javaPackage, p -> displayName);
    }

    /**
     * Parses every input and generates its classes in memory, then writes them all: a malformed input leaves no
     * output from any of them (not even the files before it). A file ending in {@code .et} is read as a com_err
     * error table and gives one class of codes, names and messages; any other is an {@code .xg} file.
     *
     * @param inputs the {@code .xg} and {@code .et} files (UTF-8 or ASCII), in the order their notes are reported
     * @param outputRoot the source root; classes go to the package's directory under it
     * @param javaPackage the generated classes' package, "" for the unnamed package
     * @param displayName the name of an input used in messages and generated comments (e.g. the path as given)
     * @return the files written (each input's in class name order, inputs in order) and the notes
     * @throws XgException for malformed or unsupported input ({@code file:line:column: ...}), or two inputs that
     *     generate the same class; nothing is written
     * @throws IOException if an input cannot be read (the message names it; nothing is written) or an output
     *     cannot be written
     */
    public static Result generate(List<Path> inputs, Path outputRoot, String javaPackage,
            Function<Path, String> displayName) throws XgException, IOException {
        Map<String, String> classes = new LinkedHashMap<>();
        Map<String, String> origin = new HashMap<>();
        List<String> notes = new ArrayList<>();
        for (Path input : inputs) {
            String shown = displayName.apply(input);
            String source;
            try {
                source = Files.readString(input, StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new IOException(shown + ": cannot read: " + e, e);
            }
            Map<String, String> generated;
            if (input.getFileName().toString().endsWith(".et")) {
                ErrorTable table = EtParser.parse(shown, source);
                String name = shown.replaceAll("^.*[/\\\\]", "");
                generated = Map.of(ErrorTableGenerator.className(table),
                        ErrorTableGenerator.generate(table, name, javaPackage));
            } else {
                XgFile file = Parser.parse(shown, source);
                generated = JavaGenerator.generate(file, javaPackage);
                notes.addAll(file.notes());
            }
            for (Map.Entry<String, String> c : generated.entrySet()) {
                String before = origin.putIfAbsent(c.getKey(), shown);
                if (before != null) {
                    throw new XgException(new Pos(shown, 1, 1),
                            "class " + c.getKey() + " is also generated from " + before);
                }
                classes.put(c.getKey(), c.getValue());
            }
        }
        return new Result(JavaGenerator.write(classes, javaPackage, outputRoot), notes);
    }

    /**
     * Deletes what an earlier run wrote and this one did not (an input since removed or renamed, another package),
     * for a tool that remembers its runs' output (the Maven plugin). Only files that still start with rx-gen's
     * "Generated by rx-gen" header go: a file since replaced by hand, and anything rx-gen never wrote, stay.
     *
     * @param earlier the files an earlier run wrote ({@link Result#files()} then); missing ones are skipped
     * @param keep the files this run wrote
     * @return the files deleted, in the order of {@code earlier}
     * @throws IOException if a file cannot be read or deleted
     */
    public static List<Path> removeStale(Collection<Path> earlier, Collection<Path> keep) throws IOException {
        Set<Path> kept = keep.stream().map(p -> p.toAbsolutePath().normalize()).collect(Collectors.toSet());
        List<Path> removed = new ArrayList<>();
        for (Path f : earlier) {
            if (!kept.contains(f.toAbsolutePath().normalize()) && Files.isRegularFile(f)
                    && JavaGenerator.isHeader(firstLine(f))) {
                Files.delete(f);
                removed.add(f);
            }
        }
        return removed;
    }

    /** ISO-8859-1 reads any bytes: a user's file in another encoding is simply not rx-gen's. */
    private static String firstLine(Path f) throws IOException {
        try (BufferedReader r = Files.newBufferedReader(f, StandardCharsets.ISO_8859_1)) {
            return r.readLine();
        }
    }
}
