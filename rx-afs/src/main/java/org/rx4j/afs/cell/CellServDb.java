// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.afs.cell;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * A parsed CellServDB: the file every AFS client and server has (Debian: {@code /etc/openafs/CellServDB}), which
 * lists cells and their database servers (vlserver, ptserver, buserver and bosserver all run on each):
 *
 * <pre>
 * &gt;example.org    #Example Organization
 * 10.0.0.1         #afsdb1.example.org
 * 10.0.0.2         #afsdb2.example.org
 * [10.0.0.3]       #afsdb3.example.org (a non-voting clone)
 * </pre>
 *
 * <p>Format accepted (the common format of the file, written from its documented shape): a line starting with
 * {@code >} opens a cell, its name up to white space or {@code #}, then an optional {@code #comment}; each
 * following line is one server: a dotted-quad IPv4 address, optionally in brackets, then an optional
 * {@code #hostname} (the comment's first word is the server's host name when it is a DNS name; other comments,
 * such as an address repeated or prose, give none, and the address never carries it). Blank lines and lines starting with {@code #} are ignored; leading and trailing white space
 * is ignored. Cell names compare case-insensitively (stored lower case). Everything else is refused with a
 * {@link CellFormatException} naming the file, the line and the problem: a server line before any cell, a cell
 * line without a name, a cell listed twice, an address that is not a dotted-quad IPv4 address (host names are
 * not resolved here), and text after the name or address that is not a {@code #} comment.
 */
public final class CellServDb {
    private final Map<String, Cell> cells;

    private CellServDb(Map<String, Cell> cells) {
        this.cells = Collections.unmodifiableMap(cells);
    }

    /**
     * Reads and parses a CellServDB file, decoded as ISO-8859-1: the syntax is ASCII, and comments in the wild are
     * Latin-1 (Debian's stock file has "Universit\u00e4t" in one), which this decoding reads whatever the bytes.
     *
     * @param file the file
     * @return the cells it lists
     * @throws CellFormatException on a malformed line (file name and line number in the message)
     * @throws IOException if the file cannot be read (the message names the file, and the line when reading failed
     *     inside it)
     */
    public static CellServDb read(Path file) throws IOException {
        Reader in;
        try {
            in = Files.newBufferedReader(file, StandardCharsets.ISO_8859_1);
        } catch (IOException e) {
            throw new IOException(file + ": cannot read the CellServDB: " + e, e);
        }
        try (in) {
            return parse(in, file.toString());
        }
    }

    /**
     * Parses CellServDB text.
     *
     * @param text the file's contents
     * @param source the name used in error messages (e.g. the file name)
     * @return the cells it lists
     * @throws CellFormatException on a malformed line
     */
    public static CellServDb parse(String text, String source) throws CellFormatException {
        try {
            return parse(new StringReader(text), source);
        } catch (CellFormatException e) {
            throw e;
        } catch (IOException e) {
            throw new IllegalStateException("a StringReader does not fail", e);
        }
    }

    /**
     * Parses CellServDB text from a reader (not closed here).
     *
     * @param in the text
     * @param source the name used in error messages
     * @return the cells it lists
     * @throws CellFormatException on a malformed line
     * @throws IOException if reading fails (the message names the source and the line)
     */
    public static CellServDb parse(Reader in, String source) throws IOException {
        BufferedReader lines = in instanceof BufferedReader b ? b : new BufferedReader(in);
        Map<String, Cell> cells = new LinkedHashMap<>();
        String cellName = null;
        String cellComment = "";
        List<DbServer> servers = new ArrayList<>();
        int number = 0;
        for (String raw = nextLine(lines, source, 1); raw != null; raw = nextLine(lines, source, number + 1)) {
            number++;
            String line = raw.strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            if (line.startsWith(">")) {
                if (cellName != null) {
                    cells.put(cellName, new Cell(cellName, cellComment, servers));
                }
                String[] parts = splitComment(line.substring(1).strip());
                String name = parts[0];
                if (name.isEmpty()) {
                    throw new CellFormatException(source, number, "a cell line without a cell name", raw);
                }
                if (name.chars().anyMatch(Character::isWhitespace)) {
                    throw new CellFormatException(source, number, "text after the cell name that is not a #comment",
                            raw);
                }
                cellName = name.toLowerCase(Locale.ROOT);
                if (cells.containsKey(cellName)) {
                    throw new CellFormatException(source, number, "cell " + cellName + " is listed twice", raw);
                }
                cellComment = parts[1];
                servers = new ArrayList<>();
                continue;
            }
            if (cellName == null) {
                throw new CellFormatException(source, number, "a server line before any '>cell' line", raw);
            }
            String[] parts = splitComment(line);
            String address = parts[0];
            if (address.chars().anyMatch(Character::isWhitespace)) {
                throw new CellFormatException(source, number, "text after the address that is not a #comment", raw);
            }
            boolean clone = address.startsWith("[");
            if (clone) {
                if (!address.endsWith("]")) {
                    throw new CellFormatException(source, number, "a '[' without its ']'", raw);
                }
                address = address.substring(1, address.length() - 1);
            }
            byte[] octets = ipv4(address);
            if (octets == null) {
                throw new CellFormatException(source, number, "not an IPv4 address (a.b.c.d)", raw);
            }
            try {
                servers.add(new DbServer(InetAddress.getByAddress(octets), hostName(parts[1]), clone));
            } catch (UnknownHostException e) {
                throw new IllegalStateException("four octets are a valid IPv4 address", e);
            }
        }
        if (cellName != null) {
            cells.put(cellName, new Cell(cellName, cellComment, servers));
        }
        return new CellServDb(cells);
    }

    /** @return the cells in file order, by lower-case name */
    public Map<String, Cell> cells() {
        return cells;
    }

    /**
     * @param name a cell name, any case
     * @return the cell, or empty if the file does not list it
     */
    public Optional<Cell> cell(String name) {
        return Optional.ofNullable(cells.get(name.toLowerCase(Locale.ROOT)));
    }

    /** Reads one line; a read failure names the source and the line it was reading. */
    private static String nextLine(BufferedReader lines, String source, int number) throws IOException {
        try {
            return lines.readLine();
        } catch (CellFormatException e) {
            throw e;
        } catch (IOException e) {
            throw new IOException(source + ":" + number + ": cannot read the CellServDB: " + e, e);
        }
    }

    /**
     * The host name a server line's comment gives: its first word when that is a DNS name (letters, digits, '-'
     * and '.', with a letter in it, so not an address), else "".
     */
    static String hostName(String comment) {
        String word = comment.split("\\s+", 2)[0];
        boolean name = !word.isEmpty() && word.length() <= 253
                && word.chars().allMatch(c -> c < 128 && (Character.isLetterOrDigit(c) || c == '-' || c == '.'))
                && word.chars().anyMatch(c -> c < 128 && Character.isLetter(c))
                && !word.startsWith(".") && !word.startsWith("-") && !word.contains("..");
        return name ? word : "";
    }

    /** Splits "value #comment" into {value stripped, comment stripped} ("" when absent). */
    private static String[] splitComment(String text) {
        int hash = text.indexOf('#');
        if (hash < 0) {
            return new String[] {text.strip(), ""};
        }
        return new String[] {text.substring(0, hash).strip(), text.substring(hash + 1).strip()};
    }

    /** Strict dotted quad: four decimal octets 0..255, no host names; null if it is not one. */
    private static byte[] ipv4(String text) {
        String[] fields = text.split("\\.", -1);
        if (fields.length != 4) {
            return null;
        }
        byte[] out = new byte[4];
        for (int i = 0; i < 4; i++) {
            String f = fields[i];
            if (f.isEmpty() || f.length() > 3 || !f.chars().allMatch(c -> c >= '0' && c <= '9')) {
                return null;
            }
            int v = Integer.parseInt(f);
            if (v > 255) {
                return null;
            }
            out[i] = (byte) v;
        }
        return out;
    }
}
