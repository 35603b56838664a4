// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.afs.tools;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import org.rx4j.afs.bozo.BzErrors;
import org.rx4j.afs.cell.AfsService;
import org.rx4j.afs.cell.CellLocator;
import org.rx4j.afs.cell.CellServDb;
import org.rx4j.afs.cell.DnsSrvLocator;
import org.rx4j.afs.cell.ThisCell;
import org.rx4j.afs.pt.PrClient;
import org.rx4j.afs.pt.PtErrors;
import org.rx4j.afs.ubik.UbikCall;
import org.rx4j.afs.ubik.UbikClient;
import org.rx4j.afs.vl.Nvldbentry;
import org.rx4j.afs.vl.VlClient;
import org.rx4j.afs.vl.VlErrors;
import org.rx4j.rpc.RxEndpoint;
import org.rx4j.rpc.errors.RxErrorTables;
import org.rx4j.rpc.errors.RxException;
import org.rx4j.security.SecurityClass;
import org.rx4j.security.rxkad.RxkadCodes;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code afsq}: asks a cell's database servers, through rx-afs's generated stubs, the cell reader
 * ({@link CellLocator}: CellServDB, then DNS SRV) and the multi-server client ({@link UbikClient}), rxnull unless
 * a security flag ({@link SecurityOptions}) asks for rxkad.
 *
 * <pre>
 * afsq vl-entry VOLUME [-c CELL] [--cellservdb FILE] [--dns HOST:PORT] [--port PORT] [-t SECONDS]
 * afsq pt-id NAME...   [-c CELL] [--cellservdb FILE] [--dns HOST:PORT] [--port PORT] [-t SECONDS]
 * afsq ls [-l] PATH | cat [-o BYTES] [-n BYTES] [--fid] PATH | put [-a|-x] LOCAL PATH | stat PATH | mkdir PATH
 *      | mkmount [-rw] PATH VOLUME | rm PATH
 *    (PATH: /afs/CELL/...; FileCommands)
 *    both also: [-localauth [-config DIR] | -ccache FILE] [-encrypt]
 * </pre>
 *
 * <p>Exit status: 0 on an answer, 1 when the servers answer with an error or cannot be reached (one line on
 * stderr, e.g. {@code afsq: VL_GetEntryByNameN (opcode 519): ... VL_NOENT ...}), 2 on bad usage (one line).
 * Reference: docs/cells.md ("afsq").
 */
@Command(name = "afsq", mixinStandardHelpOptions = true, version = "afsq (rx4j)",
        description = "Asks an AFS cell's vlserver or ptserver, or reads and writes its files (rxnull, or rxkad with "
                + "-localauth or -ccache).",
        subcommands = {Afsq.VlEntry.class, Afsq.PtId.class, FileCommands.Ls.class, FileCommands.Cat.class,
            FileCommands.Put.class, FileCommands.Stat.class, FileCommands.Mkdir.class, FileCommands.Mkmount.class,
            FileCommands.Rm.class, FileCommands.Mv.class, FileCommands.Ln.class})
public final class Afsq implements Callable<Integer> {
    /** ptserver's answer for a name it does not know (ANONYMOUSID, ptint.h). */
    static final int ANONYMOUS_ID = 32766;

    @Override
    public Integer call() {
        throw new CommandLine.ParameterException(new CommandLine(this), "a command is required: vl-entry, pt-id, ls, cat, put, stat, mkdir, mkmount or rm");
    }

    /** Options every command takes. */
    static final class CellOptions {
        @Option(names = {"-c", "--cell"}, paramLabel = "CELL",
                description = "the cell (default: the first line of /etc/openafs/ThisCell)")
        String cell;

        /** The CellServDB read when none is given; skipped when absent. */
        static final Path DEFAULT_CELLSERVDB = Path.of("/etc/openafs/CellServDB");

        @Spec(Spec.Target.MIXEE)
        CommandSpec spec;

        /** The CellServDB to read: the one given (it must exist), else the default if present, else none. */
        Path cellServDb;

        /**
         * @param file the CellServDB the user named
         * @throws ParameterException (exit 2) if it does not exist: a file named on the command line is not skipped
         */
        @Option(names = "--cellservdb", paramLabel = "FILE",
                description = "the CellServDB to read (default: /etc/openafs/CellServDB, skipped if absent; a file "
                        + "named here must exist)")
        void cellServDb(Path file) {
            if (!Files.exists(file)) {
                throw new ParameterException(spec.commandLine(), "--cellservdb " + file + ": no such file");
            }
            cellServDb = file;
        }

        @Option(names = "--thiscell", paramLabel = "FILE", defaultValue = "/etc/openafs/ThisCell", hidden = true)
        Path thisCell;

        @Option(names = "--dns", paramLabel = "HOST:PORT",
                description = "DNS server for SRV records when the cell is not in the CellServDB (default: the system's)")
        String dns;

        @Option(names = "--port", paramLabel = "PORT",
                description = "the servers' UDP port (default: the service's, vlserver 7003, ptserver 7002)")
        Integer port;

        @Option(names = {"-v", "--verbose"},
                description = "say on stderr which server answered after how many tries")
        boolean verbose;

        @Option(names = {"-t", "--timeout"}, paramLabel = "SECONDS", defaultValue = "15",
                description = "deadline of each call to one server, s (default: ${DEFAULT-VALUE})")
        int timeoutSeconds;

        String cell() throws IOException {
            if (cell != null) {
                return cell;
            }
            try {
                return ThisCell.read(thisCell);
            } catch (java.nio.file.NoSuchFileException e) {
                // A usage error (exit 2): the command line names no cell and the machine has none.
                throw new ParameterException(spec.commandLine(), "no cell given: name it with -c CELL ("
                        + e.getMessage() + ")");
            }
        }

        List<InetSocketAddress> servers(AfsService service) throws IOException {
            Path file = cellServDb != null ? cellServDb
                    : Files.exists(DEFAULT_CELLSERVDB) ? DEFAULT_CELLSERVDB : null;
            CellServDb db = file != null ? CellServDb.read(file) : null;
            List<InetSocketAddress> found =
                    new CellLocator(db, new DnsSrvLocator(dns, Duration.ofSeconds(2))).servers(cell(), service);
            if (port == null) {
                return found;
            }
            return found.stream().map(a -> new InetSocketAddress(a.getAddress(), port)).toList();
        }

        Duration deadline() {
            return Duration.ofSeconds(timeoutSeconds);
        }

        /** Makes the call; with -v says which server answered (also when the answer is an error). */
        <C, T> T report(UbikClient<C> client, UbikCall<C, T> call, int servers, PrintWriter err) throws IOException {
            UbikClient.Answer<T> answer;
            try {
                answer = client.ask(call);
            } catch (RxException e) {
                if (verbose && e.remote()) {
                    InetSocketAddress s = client.preferredServer();
                    err.println("afsq: " + s.getAddress().getHostAddress() + ":" + s.getPort()
                            + " answered with an error");
                    err.flush();
                }
                throw e;
            }
            if (verbose) {
                err.println("afsq: " + answer.server().getAddress().getHostAddress() + ":" + answer.server().getPort()
                        + " answered, try " + answer.tries() + " of at most " + servers);
                err.flush();
            }
            return answer.value();
        }
    }

    @Command(name = "vl-entry", mixinStandardHelpOptions = true, version = "afsq (rx4j)",
            description = "Prints a volume's VLDB entry (VL_GetEntryByNameN), as vos listvldb does.")
    static final class VlEntry implements Callable<Integer> {
        @Mixin
        CellOptions options;

        @Mixin
        SecurityOptions security;

        @Parameters(paramLabel = "VOLUME", description = "the volume's name")
        String volume;

        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Override
        public Integer call() throws IOException {
            security.check(spec);
            List<InetSocketAddress> servers = options.servers(AfsService.VLSERVER);
            SecurityClass securityClass = security.securityClass(options.cell());
            try (RxEndpoint endpoint = RxEndpoint.builder().bind(new InetSocketAddress(0)).open()) {
                UbikClient<VlClient> vl = UbikClient.connect(endpoint, servers, AfsService.VLSERVER.serviceId(),
                        securityClass, VlClient::new);
                Nvldbentry entry = options.report(vl, c -> c.getEntryByNameN(volume, options.deadline()),
                        servers.size(), spec.commandLine().getErr());
                PrintWriter out = spec.commandLine().getOut();
                for (String line : VldbFormat.lines(entry)) {
                    out.println(line);
                }
                out.flush();
            }
            return 0;
        }
    }

    @Command(name = "pt-id", mixinStandardHelpOptions = true, version = "afsq (rx4j)",
            description = "Prints each name's id (PR_NameToID): 'NAME ID' per line.")
    static final class PtId implements Callable<Integer> {
        @Mixin
        CellOptions options;

        @Mixin
        SecurityOptions security;

        @Parameters(paramLabel = "NAME", arity = "1..*", description = "user or group names")
        List<String> names;

        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Override
        public Integer call() throws IOException {
            security.check(spec);
            List<InetSocketAddress> servers = options.servers(AfsService.PRSERVER);
            SecurityClass securityClass = security.securityClass(options.cell());
            try (RxEndpoint endpoint = RxEndpoint.builder().bind(new InetSocketAddress(0)).open()) {
                UbikClient<PrClient> pr = UbikClient.connect(endpoint, servers, AfsService.PRSERVER.serviceId(),
                        securityClass, PrClient::new);
                List<Integer> ids = options.report(pr, c -> c.nameToID(names, options.deadline()),
                        servers.size(), spec.commandLine().getErr());
                PrintWriter out = spec.commandLine().getOut();
                int status = 0;
                for (int i = 0; i < names.size(); i++) {
                    if (ids.get(i) == ANONYMOUS_ID) {
                        spec.commandLine().getErr().println("afsq: " + names.get(i) + ": no such user or group");
                        status = 1;
                    } else {
                        out.println(names.get(i) + " " + ids.get(i));
                    }
                }
                out.flush();
                return status;
            }
        }
    }

    /**
     * Runs afsq with the given streams.
     *
     * @param args the command line
     * @param out standard output
     * @param err standard error
     * @return the exit status: 0, 1 (the servers' error or no server) or 2 (bad usage)
     */
    public static int run(String[] args, PrintWriter out, PrintWriter err) {
        // The servers' com_err codes print by name (VL_NOENT (363524): ...) once their tables are registered; rxkad's
        // too, with which a server refuses a connection (RXKADBADTICKET (19270407): ...).
        VlErrors.register();
        PtErrors.register();
        BzErrors.register();
        RxErrorTables.register("rxk", RxkadCodes.table());
        CommandLine cmd = new CommandLine(new Afsq()).setOut(out).setErr(err);
        cmd.setParameterExceptionHandler((e, a) -> {
            err.println("afsq: " + e.getMessage() + " (afsq --help)");
            err.flush();
            return 2;
        });
        cmd.setExecutionExceptionHandler((e, c, p) -> {
            boolean usage = e instanceof ParameterException; // found while running, e.g. no cell named or configured
            err.println("afsq: " + e.getMessage() + (usage ? " (afsq --help)" : ""));
            err.flush();
            return usage ? 2 : 1;
        });
        return cmd.execute(args);
    }

    /**
     * @param args the command line
     */
    public static void main(String[] args) {
        System.exit(run(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true)));
    }
}
