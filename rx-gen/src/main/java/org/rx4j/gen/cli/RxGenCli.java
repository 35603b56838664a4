// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.gen.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.rx4j.gen.RxGen;
import org.rx4j.gen.java.JavaGenerator;
import org.rx4j.gen.xg.XgException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code java -jar rx-gen.jar -d OUTDIR [-p java.package] FILE...}: turns rxgen interface files ({@code .xg}) and
 * com_err tables ({@code .et}) into Java; nothing is written unless every file parses. Exit codes: 0 done (notes about skipped constructs on stderr), 1 bad input (one {@code file:line:column: ...}
 * line on stderr) or an I/O failure, 2 bad flags (one line on stderr).
 */
@Command(name = "rx-gen", mixinStandardHelpOptions = true, version = "rx-gen 0.1",
        description = "Generates Java 17 clients, servers and XDR types for rx4j from rxgen .xg files and com_err .et "
                + "tables (nothing is written unless every file parses).")
public final class RxGenCli implements Callable<Integer> {
    @Option(names = "-d", required = true, paramLabel = "OUTDIR", description = "source root to write into")
    private Path outDir;

    @Option(names = "-p", paramLabel = "PACKAGE", defaultValue = "",
            description = "Java package of the generated classes (default: none)")
    private String javaPackage;

    @Parameters(arity = "1..*", paramLabel = "FILE", description = "rxgen interface files (.xg) and com_err tables (.et)")
    private List<Path> inputs;

    private PrintWriter err;
    private PrintWriter out;

    /**
     * Runs the tool.
     *
     * @param args the command line
     */
    public static void main(String[] args) {
        System.exit(run(new PrintWriter(System.out, true), new PrintWriter(System.err, true), args));
    }

    /**
     * Runs the tool with given streams (for tests).
     *
     * @param out where the list of written files goes
     * @param err where errors and notes go
     * @param args the command line
     * @return the exit code: 0 done, 1 bad input or I/O failure, 2 bad flags
     */
    public static int run(PrintWriter out, PrintWriter err, String... args) {
        RxGenCli cli = new RxGenCli();
        cli.out = out;
        cli.err = err;
        CommandLine cmd = new CommandLine(cli);
        cmd.setOut(out);
        cmd.setErr(err);
        cmd.setParameterExceptionHandler((ex, a) -> {
            err.println("rx-gen: " + ex.getMessage() + " (see rx-gen --help)");
            err.flush();
            return 2;
        });
        return cmd.execute(args);
    }

    @Override
    public Integer call() {
        if (!JavaGenerator.isPackageName(javaPackage)) {
            err.println("rx-gen: -p: not a Java package name: " + javaPackage);
            err.flush();
            return 2;
        }
        try {
            RxGen.Result result = RxGen.generate(inputs, outDir, javaPackage, Path::toString);
            result.notes().forEach(err::println);
            result.files().forEach(out::println);
            return 0;
        } catch (XgException e) {
            err.println(e.getMessage());
            return 1;
        } catch (IllegalArgumentException e) {
            err.println("rx-gen: " + e.getMessage());
            return 2;
        } catch (IOException e) {
            err.println("rx-gen: " + e);
            return 1;
        } finally {
            out.flush();
            err.flush();
        }
    }
}
