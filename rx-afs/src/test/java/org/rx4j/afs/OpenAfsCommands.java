// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.afs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The real OpenAFS client programs the interop tests compare rx4j with (docs/interop.md): running one, and reading
 * Debian's {@code rxdebug -allconnections} listing of a server's connections, which names each connection's security
 * index and rxkad level (docs/security.md "Seeing the level").
 */
final class OpenAfsCommands {
    private OpenAfsCommands() {
    }

    /**
     * One connection of an rxdebug listing.
     *
     * @param host the peer's dotted address
     * @param port the peer's UDP port
     * @param cuid epoch/cid as rxdebug prints them
     * @param securityIndex the connection's security index
     * @param level rxkad's level ({@code clear}, {@code auth}, {@code crypt}), or {@code -} for no rxkad line
     */
    record Conn(String host, int port, String cuid, int securityIndex, String level) {
    }

    /**
     * Runs a real OpenAFS client program and returns its output lines (stdout and stderr); fails on a non-zero exit
     * or after 30 s.
     *
     * @param command the program and its arguments
     * @return the output lines
     * @throws IOException if it cannot start
     * @throws InterruptedException if interrupted while waiting
     */
    static List<String> run(String... command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        p.getOutputStream().close();
        byte[] out = p.getInputStream().readAllBytes();
        assertTrue(p.waitFor(30, TimeUnit.SECONDS), String.join(" ", command) + " did not end");
        String text = new String(out, StandardCharsets.UTF_8);
        System.out.println("$ " + String.join(" ", command) + "\n" + text);
        assertEquals(0, p.exitValue(), String.join(" ", command) + ": " + text);
        return text.lines().toList();
    }

    /**
     * Debian's {@code bos} with {@code -localauth} (the keys of /etc/openafs/server) against a server.
     *
     * @param server the bosserver's address
     * @param args the command and its options
     * @return the output lines, trailing blanks stripped
     * @throws Exception as {@link #run}
     */
    static List<String> bosLocalauth(String server, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of("bos"));
        command.addAll(List.of(args));
        command.addAll(List.of("-server", server, "-localauth"));
        return run(command.toArray(String[]::new)).stream().map(String::stripTrailing).toList();
    }

    /**
     * Debian's {@code rxdebug HOST PORT -allconnections}, parsed.
     *
     * @param host the server's address
     * @param port the server's UDP port
     * @return its connections, in listing order
     * @throws IOException if rxdebug cannot start
     * @throws InterruptedException if interrupted while waiting
     */
    static List<Conn> rxdebugConnections(String host, int port) throws IOException, InterruptedException {
        List<Conn> conns = new ArrayList<>();
        String[] current = null;
        int index = -1;
        String level = "-";
        for (String line : run("rxdebug", host, Integer.toString(port), "-allconnections")) {
            if (line.startsWith("Connection ")) {
                if (current != null) {
                    conns.add(new Conn(current[0], Integer.parseInt(current[1]), current[2], index, level));
                }
                // "Connection from host 10.99.0.2, port 7001, Cuid 8cda84bc/ef8c77b0"
                String[] f = line.split("[ ,]+");
                current = new String[] {f[3], f[5], f[7]};
                index = -1;
                level = "-";
            } else if (current != null && line.contains("security index ")) {
                String rest = line.substring(line.indexOf("security index ") + "security index ".length());
                index = Integer.parseInt(rest.substring(0, rest.indexOf(',')));
            } else if (current != null && line.startsWith("  rxkad: level ")) {
                level = line.substring("  rxkad: level ".length()).split(",")[0];
            }
        }
        if (current != null) {
            conns.add(new Conn(current[0], Integer.parseInt(current[1]), current[2], index, level));
        }
        return conns;
    }

    /**
     * Proves a level on the server's side: every connection {@code rxdebug} lists from {@code peerHost} (from
     * {@code peerPort}, unless it is 0) is rxkad (security index 2) at {@code level}, and there is at least one; a
     * silent fall back to rxnull fails.
     *
     * @param conns the server's connections ({@link #rxdebugConnections})
     * @param peerHost the client's address
     * @param peerPort the client's UDP port, or 0 for any
     * @param level the expected rxkad level
     * @return the matching connections
     */
    static List<Conn> assertRxkadLevel(List<Conn> conns, String peerHost, int peerPort, String level) {
        List<Conn> mine = conns.stream()
                .filter(c -> c.host().equals(peerHost) && (peerPort == 0 || c.port() == peerPort)).toList();
        assertFalse(mine.isEmpty(), "no connection from " + peerHost + ":" + peerPort + " in " + conns);
        for (Conn c : mine) {
            assertEquals(2, c.securityIndex(), "security index of " + c);
            assertEquals(level, c.level(), "rxkad level of " + c);
        }
        return mine;
    }
}
