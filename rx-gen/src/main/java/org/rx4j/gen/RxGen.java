package org.rx4j.gen;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.rx4j.gen.et.ErrorTable;
import org.rx4j.gen.et.EtParser;
import org.rx4j.gen.java.ErrorTableGenerator;
import org.rx4j.gen.java.JavaGenerator;
import org.rx4j.gen.xg.Parser;
import org.rx4j.gen.xg.XgException;
import org.rx4j.gen.xg.XgFile;

/**
 * rx-gen's entry point for tools (the CLI and the Maven plugin): parse one {@code .xg} file and write its Java
 * classes under a source root.
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
     * Parses {@code xg} and writes its classes. A file ending in {@code .et} is read as a com_err error table
     * and gives one class of codes, names and messages.
     *
     * @param xg the {@code .xg} file (UTF-8 or ASCII)
     * @param outputRoot the source root; classes go to the package's directory under it
     * @param javaPackage the generated classes' package, "" for the unnamed package
     * @param displayName the file name used in messages and generated comments (e.g. the path as given)
     * @return the files written and the notes
     * @throws XgException for malformed or unsupported input ({@code file:line:column: ...})
     * @throws IOException if the file cannot be read or an output written
     */
    public static Result generate(Path xg, Path outputRoot, String javaPackage, String displayName)
            throws XgException, IOException {
        String source = Files.readString(xg, StandardCharsets.UTF_8);
        if (xg.getFileName().toString().endsWith(".et")) {
            ErrorTable table = EtParser.parse(displayName, source);
            String cls = ErrorTableGenerator.className(table);
            String name = displayName.replaceAll("^.*[/\\\\]", "");
            return new Result(JavaGenerator.write(Map.of(cls, ErrorTableGenerator.generate(table, name, javaPackage)),
                    javaPackage, outputRoot), List.of());
        }
        XgFile file = Parser.parse(displayName, source);
        Map<String, String> classes = JavaGenerator.generate(file, javaPackage);
        return new Result(JavaGenerator.write(classes, javaPackage, outputRoot), file.notes());
    }
}
