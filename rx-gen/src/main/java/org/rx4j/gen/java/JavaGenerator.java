package org.rx4j.gen.java;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.rx4j.gen.xg.Proc;
import org.rx4j.gen.xg.XgException;
import org.rx4j.gen.xg.XgFile;

/**
 * Turns a parsed {@code .xg} file into Java 17 sources that use only rx-core's public API
 * ({@code org.rx4j.rpc}, {@code org.rx4j.rpc.xdr}, {@code org.rx4j.security}). See docs/rxgen.md for what
 * each construct becomes.
 */
public final class JavaGenerator {
    private JavaGenerator() {
    }

    /**
     * Generates every class of one file.
     *
     * @param file the parsed file
     * @param javaPackage the package of the generated classes, e.g. {@code org.example.vl}; "" for none
     * @return simple class name to source text, sorted by name
     * @throws XgException if two definitions map to one Java class name
     * @throws IllegalArgumentException if javaPackage is not a Java package name
     */
    public static Map<String, String> generate(XgFile file, String javaPackage) throws XgException {
        if (!isPackageName(javaPackage)) {
            throw new IllegalArgumentException("not a Java package name: " + javaPackage);
        }
        GenContext ctx = new GenContext(file, javaPackage);
        Map<String, String> out = new LinkedHashMap<>();
        new TypeGenerator(ctx).generate(out);
        Map<String, List<Proc>> byPackage = new LinkedHashMap<>();
        for (Proc p : file.procs()) {
            byPackage.computeIfAbsent(p.prefix(), k -> new ArrayList<>()).add(p);
        }
        boolean split = file.procs().stream().anyMatch(Proc::split);
        new SupportGenerator(ctx).generate(out, !file.procs().isEmpty(), split);
        ServiceGenerator services = new ServiceGenerator(ctx);
        for (Map.Entry<String, List<Proc>> e : byPackage.entrySet()) {
            services.generate(out, e.getKey(), e.getValue());
        }
        return new TreeMap<>(out);
    }

    /**
     * @param javaPackage a candidate package name
     * @return true for "" (the unnamed package) or dot-separated Java identifiers
     */
    public static boolean isPackageName(String javaPackage) {
        return javaPackage.isEmpty() || javaPackage.matches("[A-Za-z_$][\\w$]*(\\.[A-Za-z_$][\\w$]*)*");
    }

    /**
     * Writes generated classes under a source root, in the package's directories.
     *
     * @param sources simple class name to source, from {@link #generate}
     * @param javaPackage their package
     * @param root the source root, created if missing
     * @return the files written, in class name order
     * @throws IOException if a file cannot be written
     */
    public static List<Path> write(Map<String, String> sources, String javaPackage, Path root) throws IOException {
        Path dir = javaPackage.isEmpty() ? root : root.resolve(javaPackage.replace('.', '/'));
        Files.createDirectories(dir);
        List<Path> written = new ArrayList<>();
        for (Map.Entry<String, String> e : sources.entrySet()) {
            Path f = dir.resolve(e.getKey() + ".java");
            Files.writeString(f, e.getValue(), StandardCharsets.UTF_8);
            written.add(f);
        }
        return written;
    }
}
