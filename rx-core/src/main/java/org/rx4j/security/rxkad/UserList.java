// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.security.rxkad;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import org.rx4j.security.CallerIdentity;
import org.rx4j.security.SecurityIndex;

/**
 * Who is a superuser of an AFS server, as OpenAFS decides it (docs/security.md "Superusers"): the caller of an rxkad
 * connection whose ticket names {@code afs} with no instance and no cell (the {@code -localauth} identity,
 * {@link LocalAuth}), or a principal listed in the configuration directory's {@code UserList}.
 *
 * <p>The files, in the server's configuration directory (e.g. {@code /etc/openafs/server}): {@code UserList} holds
 * one name a line, {@code name}, {@code name.instance} or either with {@code @cell}; a line that starts with a space
 * holds an extended identity (kind, base64 name, display name), which names no rxkad principal and is skipped; a
 * line with no name ends the list, as OpenAFS's reader stops there. {@code ThisCell} names the local cell;
 * {@code krb.conf} (optional) lists, on its first line, Kerberos realms that also count as local; {@code krb.excl}
 * (optional) lists {@code name[.instance]@realm} principals of those realms that do not.
 *
 * <p>Matching: a caller of the local cell (no cell in the ticket, the local cell in any case, or a local realm not
 * excluded) matches the line {@code name} or {@code name.instance}; any other caller matches only
 * {@code name[.instance]@cell}, with the cell as the ticket names it or in lower case.
 *
 * <p>Before each use every file's modification time and size is compared with those last read, and the files are
 * read again on a change, so {@code bos adduser} and hand edits take effect without a restart. Thread-safe.
 */
public final class UserList {
    /** OpenAFS reads at most this many characters of a line's name. */
    static final int MAX_NAME = 64;
    private final Path userList;
    private final Path thisCell;
    private final Path krbConf;
    private final Path krbExcl;
    private Snapshot current;

    /** What was read, and the file states it was read from. */
    private record Snapshot(List<FileStamp> stamps, List<String> names, String cell, Set<String> realms,
                            Set<String> excluded) {
    }

    /** @param dir the server configuration directory holding {@code UserList} and {@code ThisCell} */
    public UserList(Path dir) {
        this.userList = dir.resolve("UserList");
        this.thisCell = dir.resolve("ThisCell");
        this.krbConf = dir.resolve("krb.conf");
        this.krbExcl = dir.resolve("krb.excl");
    }

    /**
     * @param who a call's caller ({@code RxCall.identity()})
     * @return true for the {@code -localauth} identity ({@code afs}, no instance, no cell) and for a principal the
     *     UserList names; false for any other caller and for an identity not proved by rxkad
     * @throws IOException if a file exists but cannot be read
     */
    public boolean isSuperuser(CallerIdentity who) throws IOException {
        if (who.securityIndex() != SecurityIndex.RXKAD || who.principal().isEmpty()) {
            return false;
        }
        String name = who.principal() + (who.instance().isEmpty() ? "" : "." + who.instance());
        String cell = who.cell();
        if (cell.isEmpty() && name.equals(LocalAuth.SUPERUSER)) {
            return true;
        }
        Snapshot s = snapshot();
        boolean local = cell.isEmpty() || cell.equalsIgnoreCase(s.cell)
                || s.realms.contains(cell) && !s.excluded.contains(name + "@" + cell);
        if (local) {
            return s.names.contains(name);
        }
        return s.names.contains(name + "@" + cell) || s.names.contains(name + "@" + cell.toLowerCase(Locale.ROOT));
    }

    /**
     * @return the UserList's names in file order, as {@code bos listusers} prints them (BOZO ListSUsers); empty for
     *     a missing file
     * @throws IOException if the file exists but cannot be read
     */
    public List<String> names() throws IOException {
        return snapshot().names;
    }

    /**
     * Appends {@code name} to the UserList (creating it), as BOZO AddSUser ({@code bos adduser}) does.
     *
     * @param name e.g. {@code admin}, {@code admin.admin} or {@code user@OTHER.CELL}: one token of at most 64
     *     characters
     * @return false when the list already holds the name (the file is left as it was)
     * @throws IllegalArgumentException if the name is empty, longer than 64 characters or holds white space
     * @throws IOException if the file cannot be read or written
     */
    public synchronized boolean add(String name) throws IOException {
        if (name.isEmpty() || name.length() > MAX_NAME || !name.equals(name.replaceAll("\\s", ""))) {
            throw new IllegalArgumentException("a UserList name is one token of 1..64 characters");
        }
        if (names().contains(name)) {
            return false;
        }
        Files.writeString(userList, name + "\n", StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                StandardOpenOption.APPEND);
        return true;
    }

    private synchronized Snapshot snapshot() throws IOException {
        List<FileStamp> stamps = List.of(FileStamp.of(userList), FileStamp.of(thisCell), FileStamp.of(krbConf),
                FileStamp.of(krbExcl));
        if (current == null || !current.stamps.equals(stamps)) {
            List<String> firstRealmLine = tokens(krbConf, 1);
            Set<String> realms = new TreeSet<>(String.CASE_INSENSITIVE_ORDER);
            realms.addAll(firstRealmLine);
            List<String> cell = tokens(thisCell, 1);
            current = new Snapshot(stamps, readNames(), cell.isEmpty() ? "" : cell.get(0), realms,
                    Set.copyOf(tokens(krbExcl, Integer.MAX_VALUE)));
        }
        return current;
    }

    /** @return the legacy names, up to the first line without one */
    private List<String> readNames() throws IOException {
        List<String> names = new ArrayList<>();
        for (String line : lines(userList)) {
            if (line.startsWith(" ")) {
                continue; // an extended identity: no rxkad name
            }
            String[] t = line.strip().split("\\s+", 2);
            if (t[0].isEmpty()) {
                break;
            }
            names.add(t[0].length() > MAX_NAME ? t[0].substring(0, MAX_NAME) : t[0]);
        }
        return List.copyOf(names);
    }

    /** @return the white-space separated tokens of the file's first {@code maxLines} lines; none if it is missing */
    private static List<String> tokens(Path file, int maxLines) throws IOException {
        List<String> out = new ArrayList<>();
        for (String line : lines(file).stream().limit(maxLines).toList()) {
            for (String t : line.strip().split("\\s+")) {
                if (!t.isEmpty()) {
                    out.add(t);
                }
            }
        }
        return out;
    }

    private static List<String> lines(Path file) throws IOException {
        return Files.exists(file) ? Files.readAllLines(file, StandardCharsets.UTF_8) : List.of();
    }

    /** @return the directory's file paths */
    @Override
    public String toString() {
        return "UserList[" + userList + "]";
    }
}
