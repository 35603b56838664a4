// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.afs.tools;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Callable;
import org.rx4j.afs.cell.AfsService;
import org.rx4j.afs.files.AfsErrors;
import org.rx4j.afs.files.AfsFileException;
import org.rx4j.afs.files.AfsFileSystem;
import org.rx4j.afs.files.AfsStat;
import org.rx4j.afs.files.Fids;
import org.rx4j.config.RxConfig;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * afsq's file commands on {@code /afs/CELL/...} paths through {@link AfsFileSystem} (docs/afs-files.md "afsq"):
 * {@code ls}, {@code cat}, {@code put}, {@code stat}, {@code mkdir}, {@code rm}. The cell is the path's unless
 * {@code -c} names one; errors print as {@code afsq: PATH: NAME (code): message} (ENOENT, EACCES, VNOVOL ...) with
 * exit status 1.
 */
final class FileCommands {
    private FileCommands() {
    }

    /** What every file command shares: the cell options, the security flags and the opened file system. */
    abstract static class FileCommand implements Callable<Integer> {
        @Mixin
        Afsq.CellOptions options;

        @Mixin
        SecurityOptions security;

        @Spec
        CommandSpec spec;

        /**
         * @param afs the opened file system
         * @param out standard output
         * @return the exit status
         * @throws IOException the file system's error
         */
        abstract int run(AfsFileSystem afs, PrintWriter out) throws IOException;

        /** @return the first path argument, whose cell is the default */
        abstract String firstPath();

        @Override
        public Integer call() throws IOException {
            security.check(spec);
            if (options.cell == null) {
                String p = firstPath();
                if (p.startsWith("/afs/")) {
                    String c = p.substring(5).split("/", 2)[0];
                    options.cell = c.startsWith(".") ? c.substring(1) : c;
                }
            }
            String cell = options.cell();
            try (AfsFileSystem afs = AfsFileSystem.open(cell, options.servers(AfsService.VLSERVER),
                    security.securityClass(cell), options.deadline(), java.time.Duration.ofHours(1), CONFIG)) {
                PrintWriter out = spec.commandLine().getOut();
                int status = run(afs, out);
                out.flush();
                return status;
            }
        }
    }

    /**
     * The endpoint's configuration: the defaults without UDP GRO, with GSO. A fileserver sends one packet per datagram
     * (OpenAFS fileservers send no jumbograms unless started with -jumbo), which GRO does not coalesce on loopback
     * or a veth; with GRO on, the epoll transport reads one datagram per system call, without it 8 per recvmmsg
     * (docs/transport.md "Segmentation offload"): a 256 MiB `cat` took 2.9 s of CPU against 3.7 s with GRO. Sending,
     * GSO hands the kernel up to 45 of a `put`'s single-packet datagrams per system call: a 1 GiB `put` took 5.1–5.4 s
     * of client CPU against 7.2–8.8 s without (docs/afs-files.md "Speed").
     */
    static final RxConfig CONFIG = RxConfig.builder().receiveOffload(false).build();

    @Command(name = "ls", mixinStandardHelpOptions = true, version = "afsq (rx4j)",
            description = "Lists a directory (names sorted; -l: type, mode, bytes, mtime, fid).")
    static final class Ls extends FileCommand {
        @Parameters(paramLabel = "PATH", description = "/afs/CELL/...")
        String path;

        @Option(names = "-l", description = "long listing: type, mode, length, modification time, fid, name")
        boolean longForm;

        @Override
        String firstPath() {
            return path;
        }

        @Override
        int run(AfsFileSystem afs, PrintWriter out) throws IOException {
            AfsStat st = afs.stat(path);
            boolean dir = st.type() == AfsStat.Type.DIRECTORY || st.isMountPointCandidate();
            String self = path.substring(path.lastIndexOf('/') + 1);
            if (!longForm) {
                List<AfsFileSystem.Entry> entries = dir ? afs.list(path)
                        : List.of(new AfsFileSystem.Entry(self, st.fid()));
                entries.stream().map(AfsFileSystem.Entry::name).sorted().forEach(out::println);
                return 0;
            }
            // -l: the entries' statuses 50 a call (InlineBulkStatus), not one FetchStatus each
            List<AfsFileSystem.StatEntry> entries = dir ? afs.listWithStatus(path)
                    : List.of(new AfsFileSystem.StatEntry(self, st.fid(), st, 0));
            int status = 0;
            for (AfsFileSystem.StatEntry e : entries.stream()
                    .sorted((a, b) -> a.name().compareTo(b.name())).toList()) {
                if (e.stat() != null) {
                    out.println(Stat.longLine(e.stat(), e.name()));
                } else {
                    // as ls does: the entry's error on stderr, the others listed, exit status 1
                    spec.commandLine().getErr().println("afsq: " + path + "/" + e.name() + ": "
                            + AfsErrors.describe(e.errorCode()));
                    status = 1;
                }
            }
            return status;
        }
    }

    @Command(name = "cat", mixinStandardHelpOptions = true, version = "afsq (rx4j)",
            description = "Writes a file's bytes to standard output (-o/-n: a range).")
    static final class Cat extends FileCommand {
        /** Bytes copied to the sink at most per write (256 KiB: half of what Rx stages for a reader). */
        static final int COPY_BYTES = 256 * 1024;

        @Parameters(paramLabel = "PATH", description = "/afs/CELL/...")
        String path;

        @Option(names = {"-o", "--offset"}, paramLabel = "BYTES", defaultValue = "0", description = "first byte")
        long offset;

        @Option(names = {"-n", "--length"}, paramLabel = "BYTES", defaultValue = "-1",
                description = "bytes at most (default: to the end)")
        long length;

        @Option(names = "--fid", description = "PATH is a fid, VOLUME.VNODE.UNIQUE (as afsio fidread -fid); "
                + "a directory's raw bytes too; needs -c CELL")
        boolean fid;

        /** Where the bytes go (System.out unless a test sets it). */
        OutputStream sink = System.out;

        @Override
        String firstPath() {
            return path;
        }

        @Override
        int run(AfsFileSystem afs, PrintWriter out) throws IOException {
            out.flush();
            try (InputStream in = fid ? afs.read(Fids.parse(path), offset, length) : afs.read(path, offset, length)) {
                // Large pieces: a read returns all that has arrived (up to the buffer), and each piece is one write
                // to stdout, not one per packet (System.out flushes every write)
                byte[] buf = new byte[COPY_BYTES];
                for (int n; (n = in.read(buf)) >= 0; ) {
                    sink.write(buf, 0, n);
                }
            }
            sink.flush();
            return 0;
        }
    }

    @Command(name = "put", mixinStandardHelpOptions = true, version = "afsq (rx4j)",
            description = "Copies a local file (or - for standard input) to PATH, creating or truncating it "
                    + "(-a: append; -x: fail if it exists).")
    static final class Put extends FileCommand {
        @Parameters(index = "0", paramLabel = "LOCAL", description = "a local file, or - for standard input")
        String local;

        @Parameters(index = "1", paramLabel = "PATH", description = "/afs/CELL/...")
        String path;

        @Option(names = {"-a", "--append"}, description = "add to the end of an existing file")
        boolean append;

        @Option(names = {"-x", "--exclusive"}, description = "fail with EEXIST if the file exists")
        boolean exclusive;

        @Override
        String firstPath() {
            return path;
        }

        @Override
        int run(AfsFileSystem afs, PrintWriter out) throws IOException {
            AfsFileSystem.WriteMode mode = append ? AfsFileSystem.WriteMode.APPEND
                    : exclusive ? AfsFileSystem.WriteMode.CREATE_NEW : AfsFileSystem.WriteMode.TRUNCATE;
            if (local.equals("-")) {
                afs.write(path, System.in.readAllBytes(), mode);
            } else {
                Path file = Path.of(local);
                try (InputStream in = Files.newInputStream(file)) {
                    afs.write(path, in, Files.size(file), mode);
                }
            }
            return 0;
        }
    }

    @Command(name = "stat", mixinStandardHelpOptions = true, version = "afsq (rx4j)",
            description = "Prints a path's status: fid, type, length, data version, mode, owner, group, links, "
                    + "mtime, the caller's rights.")
    static final class Stat extends FileCommand {
        @Parameters(paramLabel = "PATH", description = "/afs/CELL/...")
        String path;

        @Override
        String firstPath() {
            return path;
        }

        static String longLine(AfsStat s, String name) {
            char t = switch (s.type()) {
                case DIRECTORY -> 'd';
                case SYMLINK -> s.isMountPointCandidate() ? 'm' : 'l';
                default -> '-';
            };
            return String.format("%c%04o %12d %s %s %s", t, s.mode() & 07777, s.length(),
                    Instant.ofEpochSecond(s.modifiedSeconds()), s.fidString(), name);
        }

        @Override
        int run(AfsFileSystem afs, PrintWriter out) throws IOException {
            AfsStat s = afs.stat(path);
            out.println("File: " + path);
            out.println("Fid: " + s.fidString());
            out.println("Type: " + s.type().name().toLowerCase(java.util.Locale.ROOT)
                    + (s.isMountPointCandidate() ? " (mount point)" : ""));
            out.println("Length: " + s.length());
            out.println("DataVersion: " + s.dataVersion());
            out.println(String.format("Mode: %04o", s.mode() & 07777));
            out.println("Owner: " + s.owner() + " Group: " + s.group() + " Links: " + s.linkCount());
            out.println("Modified: " + Instant.ofEpochSecond(s.modifiedSeconds()));
            out.println("CallerAccess: " + rights(s.callerAccess()));
            return 0;
        }

        private static String rights(int bits) {
            StringBuilder b = new StringBuilder();
            String letters = "rlidwka";
            for (int i = 0; i < letters.length(); i++) {
                if ((bits & (1 << i)) != 0) {
                    b.append(letters.charAt(i));
                }
            }
            return b.toString();
        }
    }

    @Command(name = "mkdir", mixinStandardHelpOptions = true, version = "afsq (rx4j)",
            description = "Makes a directory.")
    static final class Mkdir extends FileCommand {
        @Parameters(paramLabel = "PATH", description = "/afs/CELL/...")
        String path;

        @Override
        String firstPath() {
            return path;
        }

        @Override
        int run(AfsFileSystem afs, PrintWriter out) throws IOException {
            afs.mkdir(path);
            return 0;
        }
    }

    @Command(name = "mkmount", mixinStandardHelpOptions = true, version = "afsq (rx4j)",
            description = "Makes a volume mount point, as fs mkmount does.")
    static final class Mkmount extends FileCommand {
        @Parameters(index = "0", paramLabel = "PATH", description = "/afs/CELL/...")
        String path;

        @Parameters(index = "1", paramLabel = "VOLUME", description = "the volume's name")
        String volume;

        @Option(names = "-rw", description = "a read-write mount point (%%VOLUME.)")
        boolean readWrite;

        @Override
        String firstPath() {
            return path;
        }

        @Override
        int run(AfsFileSystem afs, PrintWriter out) throws IOException {
            afs.mkmount(path, volume, readWrite);
            return 0;
        }
    }

    @Command(name = "mv", mixinStandardHelpOptions = true, version = "afsq (rx4j)",
            description = "Renames FROM to TO within one volume (RXAFS_Rename; an existing TO is replaced, as mv "
                    + "does; EXDEV across volumes).")
    static final class Mv extends FileCommand {
        @Parameters(index = "0", paramLabel = "FROM", description = "/afs/CELL/...")
        String from;

        @Parameters(index = "1", paramLabel = "TO", description = "/afs/CELL/... (an existing directory: FROM "
                + "moves into it under its own name)")
        String to;

        @Override
        String firstPath() {
            return from;
        }

        @Override
        int run(AfsFileSystem afs, PrintWriter out) throws IOException {
            String dest = to;
            if (isDirectory(afs, to)) {
                String p = from.endsWith("/") ? from.substring(0, from.length() - 1) : from;
                dest = (to.endsWith("/") ? to : to + "/") + p.substring(p.lastIndexOf('/') + 1);
            }
            afs.rename(from, dest);
            return 0;
        }

        private static boolean isDirectory(AfsFileSystem afs, String path) throws IOException {
            try {
                return afs.stat(path).type() == AfsStat.Type.DIRECTORY;
            } catch (AfsFileException e) {
                if (e.errno() == AfsErrors.ENOENT) {
                    return false;
                }
                throw e;
            }
        }
    }

    @Command(name = "ln", mixinStandardHelpOptions = true, version = "afsq (rx4j)",
            description = "Makes a hard link PATH to the file TARGET (RXAFS_Link: files of the same directory only), "
                    + "or with -s a symbolic link PATH whose contents are TARGET (RXAFS_Symlink).")
    static final class Ln extends FileCommand {
        @Parameters(index = "0", paramLabel = "TARGET", description = "the existing file; with -s any text")
        String target;

        @Parameters(index = "1", paramLabel = "PATH", description = "/afs/CELL/... the new name")
        String path;

        @Option(names = {"-s", "--symbolic"}, description = "a symbolic link")
        boolean symbolic;

        @Override
        String firstPath() {
            return path;
        }

        @Override
        int run(AfsFileSystem afs, PrintWriter out) throws IOException {
            if (symbolic) {
                afs.symlink(path, target);
            } else {
                afs.link(target, path);
            }
            return 0;
        }
    }

    @Command(name = "rm", mixinStandardHelpOptions = true, version = "afsq (rx4j)",
            description = "Removes a file, a symbolic link or an empty directory.")
    static final class Rm extends FileCommand {
        @Parameters(paramLabel = "PATH", description = "/afs/CELL/...")
        String path;

        @Override
        String firstPath() {
            return path;
        }

        @Override
        int run(AfsFileSystem afs, PrintWriter out) throws IOException {
            afs.remove(path);
            return 0;
        }
    }
}
