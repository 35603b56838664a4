// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.gen.maven;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.maven.plugin.AbstractMojo;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.project.MavenProject;
import org.rx4j.gen.RxGen;
import org.rx4j.gen.java.JavaGenerator;
import org.rx4j.gen.xg.XgException;

/**
 * {@code rx-gen:generate}: turns every {@code *.xg} file (and com_err {@code *.et} table) under
 * {@link #sourceDirectory} into Java sources in
 * {@link #outputDirectory} (package {@link #packageName}) and adds that directory as a compile source root.
 * Runs in generate-sources by default. A malformed file fails the build with {@code file:line:column: ...};
 * notes about constructs parsed but not generated are logged at info level. Java files an earlier run of the same
 * execution generated and this one does not are deleted (listed in {@code .rx-gen-<execution id>.files} in
 * {@link #outputDirectory}; see {@code RxGen.removeStale}). See docs/rxgen.md.
 */
@Mojo(name = "generate", defaultPhase = LifecyclePhase.GENERATE_SOURCES, threadSafe = true)
public final class GenerateMojo extends AbstractMojo {
    /** Where the .xg and .et files are (searched recursively, in name order). */
    @Parameter(property = "rxgen.sourceDirectory", defaultValue = "${project.basedir}/src/main/xg")
    private File sourceDirectory;

    /** The source root the Java files are written into. */
    @Parameter(property = "rxgen.outputDirectory",
            defaultValue = "${project.build.directory}/generated-sources/rx-gen")
    private File outputDirectory;

    /** The Java package of the generated classes ("" for the unnamed package). */
    @Parameter(property = "rxgen.packageName", defaultValue = "")
    private String packageName;

    /** Skip generation. */
    @Parameter(property = "rxgen.skip", defaultValue = "false")
    private boolean skip;

    /** Names this execution's list of the files it wrote, for removing them once no longer generated. */
    @Parameter(defaultValue = "${mojoExecution.executionId}", readonly = true)
    private String executionId;

    @Parameter(defaultValue = "${project}", readonly = true, required = true)
    private MavenProject project;

    @Override
    public void execute() throws MojoExecutionException, MojoFailureException {
        if (skip) {
            getLog().info("rx-gen: skipped");
            return;
        }
        String pkg = packageName == null ? "" : packageName.trim();
        if (!JavaGenerator.isPackageName(pkg)) {
            throw new MojoFailureException("rx-gen: packageName is not a Java package name: " + pkg);
        }
        Path root = sourceDirectory.toPath();
        if (!Files.isDirectory(root)) {
            getLog().info("rx-gen: no " + root + ", nothing to generate");
            removeStale(List.of());
            return;
        }
        List<Path> files;
        try (Stream<Path> walk = Files.walk(root)) {
            files = walk.filter(p -> p.toString().endsWith(".xg") || p.toString().endsWith(".et"))
                    .filter(Files::isRegularFile).sorted().collect(Collectors.toList());
        } catch (IOException e) {
            throw new MojoExecutionException("rx-gen: cannot list " + root, e);
        }
        // All files are parsed before any is written, so a malformed one leaves no partial output.
        Path base = project.getBasedir().toPath();
        int written;
        try {
            RxGen.Result r = RxGen.generate(files, outputDirectory.toPath(), pkg,
                    xg -> base.relativize(xg.toAbsolutePath()).toString());
            r.notes().forEach(n -> getLog().info(n));
            written = r.files().size();
            removeStale(r.files());
        } catch (XgException e) {
            throw new MojoFailureException(e.getMessage(), e);
        } catch (IOException e) {
            throw new MojoExecutionException("rx-gen: " + e.getMessage(), e);
        }
        getLog().info("rx-gen: " + files.size() + " .xg/.et file(s), " + written + " Java file(s) in " + outputDirectory);
        project.addCompileSourceRoot(outputDirectory.getPath());
    }

    /**
     * Deletes what an earlier run generated and this one did not (an input since removed or renamed, another
     * package), so it is not compiled; files rx-gen did not write stay.
     */
    private void removeStale(List<Path> written) throws MojoExecutionException {
        Path out = outputDirectory.toPath();
        // One list per execution: executions sharing the output directory (rx-afs: one per package) keep
        // each other's files.
        String id = executionId == null ? "default" : executionId.replaceAll("[^A-Za-z0-9._-]", "_");
        Path list = out.resolve(".rx-gen-" + id + ".files");
        try {
            List<Path> earlier = Files.exists(list)
                    ? Files.readAllLines(list, StandardCharsets.UTF_8).stream().filter(l -> !l.isBlank())
                            .map(out::resolve).toList()
                    : List.of();
            for (Path p : RxGen.removeStale(earlier, written)) {
                getLog().info("rx-gen: removed " + p + " (no longer generated)");
            }
            if (written.isEmpty()) {
                Files.deleteIfExists(list);
            } else {
                Files.write(list, written.stream().map(p -> out.relativize(p).toString()).toList(),
                        StandardCharsets.UTF_8);
            }
        } catch (IOException e) {
            throw new MojoExecutionException("rx-gen: " + e.getMessage(), e);
        }
    }
}
