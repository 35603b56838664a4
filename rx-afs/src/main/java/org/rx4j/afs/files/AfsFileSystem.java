// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.afs.files;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.LongSupplier;
import org.rx4j.afs.cb.AfsUUID;
import org.rx4j.afs.cb.RxafscbDispatcher;
import org.rx4j.afs.fs.AFSFid;
import org.rx4j.afs.fs.AFSStoreStatus;
import org.rx4j.afs.fs.AfsConstants;
import org.rx4j.afs.fs.AfsSplitCall;
import org.rx4j.afs.fs.RxafsClient;
import org.rx4j.afs.fs.RxafsCreateFileResult;
import org.rx4j.afs.fs.RxafsFetchData64Result;
import org.rx4j.afs.fs.RxafsFetchStatusResult;
import org.rx4j.afs.fs.RxafsLinkResult;
import org.rx4j.afs.fs.RxafsMakeDirResult;
import org.rx4j.afs.fs.RxafsStoreData64Result;
import org.rx4j.afs.fs.RxafsSymlinkResult;
import org.rx4j.afs.ubik.UbikClient;
import org.rx4j.afs.vl.VlClient;
import org.rx4j.config.RxConfig;
import org.rx4j.config.TransportKind;
import org.rx4j.rpc.RxEndpoint;
import org.rx4j.rpc.errors.RxException;
import org.rx4j.security.RxNullSecurityClass;
import org.rx4j.security.SecurityClass;

/**
 * Files of one AFS cell from Java, without a cache manager: paths {@code /afs/CELL/...} (or {@code /afs/.CELL/...}
 * for the read-write path) are resolved from the cell's root.cell volume through directories (read with
 * RXAFS_FetchData64 and {@link AfsDirectory}) and volume mount points; volumes are located through the cell's
 * vlservers ({@link VolumeLocator}); calls go to the fileservers with the given security class (rxnull or rxkad with
 * existing credentials), a read-only volume's replicas tried in turn. Status and directories are cached while the
 * fileserver's callback holds ({@link StatusCache}); the endpoint serves the callback service ({@link CallbackService}
 * on service 1), so a change made by another client breaks this client's entry. No data cache: every read fetches.
 * Reference: docs/afs-files.md. Thread-safe.
 *
 * <pre>{@code
 * try (AfsFileSystem afs = AfsFileSystem.open("example.org", vlservers, RxNullSecurityClass.INSTANCE)) {
 *     byte[] data = afs.readAllBytes("/afs/example.org/README");
 * }
 * }</pre>
 */
public final class AfsFileSystem implements AutoCloseable {
    /** Symlink hops followed in one resolution before ELOOP. */
    private static final int MAX_LINKS = 16;
    /** The vlserver's Rx service id. */
    private static final int VL_SERVICE_ID = 52;
    /** The vlserver's port. */
    private static final int VL_PORT = 7003;
    /** A new file's mode. */
    private static final int MODE_FILE = 0644;
    /** A directory's mode. */
    private static final int MODE_DIR = 0755;

    /** How {@link #write} treats an existing file. */
    public enum WriteMode {
        /** Create the file, or truncate an existing one to the new data (as {@code cp} does). */
        TRUNCATE,
        /** Create the file; fail with EEXIST if it exists. */
        CREATE_NEW,
        /** Create the file, or add the data after its end. */
        APPEND
    }

    /**
     * One directory entry, as {@link #list} returns it.
     *
     * @param name the name (UTF-8 decoded)
     * @param fid the entry's fid
     */
    public record Entry(String name, AFSFid fid) {
    }

    /**
     * One directory entry with its own status (a symbolic link's or mount point's, not its target's), as
     * {@link #listWithStatus} returns it.
     *
     * @param name the name (UTF-8 decoded)
     * @param fid the entry's fid
     * @param stat its status, or null when the fileserver gave an error for it instead
     * @param errorCode 0 with a status; else the fileserver's code for this entry (VNOVNODE when the entry went
     *     away since the directory was read, EACCES...), named by {@link AfsErrors#name}
     */
    public record StatEntry(String name, AFSFid fid, AfsStat stat, int errorCode) {
    }

    private final String cell;
    private final RxEndpoint endpoint;
    private final boolean ownsEndpoint;
    private final UbikClient<VlClient> vl;
    private final VolumeLocator locator;
    private final FileServers servers;
    private final StatusCache cache;
    /** The bulk status procedure this client still asks the fileservers for. */
    private final BulkStatuses bulk = new BulkStatuses();
    private final Duration deadline;
    private final Duration transferDeadline;
    private final LongSupplier clock = System::nanoTime;

    private AfsFileSystem(String cell, RxEndpoint endpoint, boolean ownsEndpoint, UbikClient<VlClient> vl,
            SecurityClass security, StatusCache cache, Duration deadline, Duration transferDeadline,
            int fileServerPort) {
        this.cell = cell;
        this.endpoint = endpoint;
        this.ownsEndpoint = ownsEndpoint;
        this.vl = vl;
        this.locator = new VolumeLocator(vl, deadline, fileServerPort);
        this.servers = new FileServers(endpoint, security, locator);
        this.cache = cache;
        this.deadline = deadline;
        this.transferDeadline = transferDeadline;
        AfsErrors.register();
    }

    /**
     * Opens the file system of a cell: an endpoint on an ephemeral UDP port of every local address, serving the
     * callback service, and clients of the cell's vlservers. Deadlines: 30 s per metadata call, 1 h per data
     * transfer.
     *
     * @param cell the cell's name (the {@code CELL} of {@code /afs/CELL})
     * @param vlservers the cell's database servers (from the CellServDB, {@link org.rx4j.afs.cell.CellLocator}); a
     *     port 0 means 7003
     * @param security the security class of every fileserver and vlserver connection (the caller keeps it)
     * @return the file system; close it
     * @throws IOException if the endpoint cannot be opened
     */
    public static AfsFileSystem open(String cell, List<InetSocketAddress> vlservers, SecurityClass security)
            throws IOException {
        return open(cell, vlservers, security, Duration.ofSeconds(30), Duration.ofHours(1));
    }

    /**
     * As {@link #open(String, List, SecurityClass)} with the deadlines given.
     *
     * @param cell the cell's name
     * @param vlservers the cell's database servers
     * @param security the connections' security class
     * @param deadline each metadata call's deadline (FetchStatus, CreateFile, a VL lookup, a directory fetch)
     * @param transferDeadline each data transfer's deadline (one FetchData64 or StoreData64 call)
     * @return the file system; close it
     * @throws IOException if the endpoint cannot be opened
     */
    public static AfsFileSystem open(String cell, List<InetSocketAddress> vlservers, SecurityClass security,
            Duration deadline, Duration transferDeadline) throws IOException {
        return open(cell, vlservers, security, deadline, transferDeadline, RxConfig.defaults());
    }

    /**
     * As {@link #open(String, List, SecurityClass, Duration, Duration)} with the endpoint's Rx configuration given
     * (windows, packet sizes: docs/embedding.md).
     *
     * @param cell the cell's name
     * @param vlservers the cell's database servers
     * @param security the connections' security class
     * @param deadline each metadata call's deadline
     * @param transferDeadline each data transfer's deadline
     * @param config the endpoint's configuration
     * @return the file system; close it
     * @throws IOException if the endpoint cannot be opened
     */
    public static AfsFileSystem open(String cell, List<InetSocketAddress> vlservers, SecurityClass security,
            Duration deadline, Duration transferDeadline, RxConfig config) throws IOException {
        return open(cell, vlservers, security, deadline, transferDeadline, config, VolumeLocator.FILESERVER_PORT);
    }

    /** As above, with the fileservers on another port than 7000 (for tests with fake fileservers). */
    static AfsFileSystem open(String cell, List<InetSocketAddress> vlservers, SecurityClass security,
            Duration deadline, Duration transferDeadline, RxConfig config, int fileServerPort) throws IOException {
        StatusCache cache = new StatusCache(System::nanoTime);
        CallbackService cb = new CallbackService(cache, newUuid());
        // AUTO: epoll where Netty's native transport is on the class path (afsq has it), for its batched sends
        RxEndpoint endpoint = RxEndpoint.builder().bind(new InetSocketAddress(0)).config(config)
                .transport(TransportKind.AUTO)
                .service(RxafscbDispatcher.service(FileServers.SERVICE_ID, RxNullSecurityClass.INSTANCE, cb))
                .open();
        try {
            List<InetSocketAddress> db = vlservers.stream()
                    .map(a -> a.getPort() == 0 ? new InetSocketAddress(a.getAddress(), VL_PORT) : a).toList();
            UbikClient<VlClient> vl = UbikClient.connect(endpoint, db, VL_SERVICE_ID, security, VlClient::new);
            return new AfsFileSystem(cell, endpoint, true, vl, security, cache, deadline, transferDeadline,
                    fileServerPort);
        } catch (RuntimeException e) {
            endpoint.close();
            throw e;
        }
    }

    private static AfsUUID newUuid() {
        SecureRandom r = new SecureRandom();
        byte[] node = new byte[6];
        r.nextBytes(node);
        // a random (version 4) UUID, the variant bits set as RFC 4122 section 4.4 says
        return new AfsUUID(r.nextInt(), (short) r.nextInt(), (short) ((r.nextInt() & 0x0fff) | 0x4000),
                (byte) ((r.nextInt() & 0x3f) | 0x80), (byte) r.nextInt(), node);
    }

    /** @return the cell's name */
    public String cell() {
        return cell;
    }

    /** @return the status cache (its {@link StatusCache#breaks()} counts broken callbacks) */
    public StatusCache cache() {
        return cache;
    }

    /** @return the bulk status procedure this client still asks for (tests) */
    BulkStatuses.Level bulkLevel() {
        return bulk.level();
    }

    /** @return the volume locator */
    public VolumeLocator locator() {
        return locator;
    }

    // ------------------------------------------------------------------ paths

    /** Where a resolution stands: a fid, and whether the path went through a read-only volume. */
    private record Node(AFSFid fid, boolean readOnly) {
    }

    private Node root(boolean readWrite) throws IOException {
        VolumeSites s = locator.byName("root.cell", !readWrite);
        return new Node(new AFSFid(s.id(), 1, 1), s.readOnly());
    }

    private List<String> components(String path) throws AfsFileException {
        if (!path.startsWith("/afs/")) {
            throw new AfsFileException(path, 0, "not an AFS path (it must start with /afs/" + cell + ")", null);
        }
        List<String> out = new ArrayList<>();
        for (String c : path.substring(5).split("/")) {
            if (c.isEmpty() || c.equals(".")) {
                continue;
            }
            if (c.equals("..")) {
                if (out.size() > 1) {
                    out.remove(out.size() - 1);
                }
                continue;
            }
            out.add(c);
        }
        if (out.isEmpty()) {
            throw new AfsFileException(path, 0, "/afs itself (root.afs) is not served: name the cell, /afs/"
                    + cell, null);
        }
        String c0 = out.get(0);
        if (!c0.equals(cell) && !c0.equals("." + cell)) {
            throw new AfsFileException(path, 0, "cell " + c0 + " is not this file system's (" + cell + ")", null);
        }
        return out;
    }

    private Node resolve(String path, boolean followLast) throws IOException {
        return resolve(path, followLast, 0);
    }

    private Node resolve(String path, boolean followLast, int links) throws IOException {
        List<String> parts = components(path);
        Node n = root(parts.get(0).startsWith("."));
        for (int i = 1; i < parts.size(); i++) {
            boolean last = i == parts.size() - 1;
            AfsStat dir = stat(n.fid(), path);
            if (dir.type() != AfsStat.Type.DIRECTORY) {
                throw new AfsFileException(path, 0, "ENOTDIR: " + String.join("/", parts.subList(0, i))
                        + " is not a directory", null);
            }
            Optional<AfsDirectory.Entry> e = directory(n.fid(), path).lookup(AfsNames.toWire(parts.get(i)));
            if (e.isEmpty()) {
                throw new AfsFileException(path, AfsErrors.ENOENT, null, null);
            }
            Node child = new Node(new AFSFid(n.fid().volume(), e.get().vnode(), e.get().unique()), n.readOnly());
            AfsStat st = stat(child.fid(), path);
            if (st.type() == AfsStat.Type.SYMLINK && (!last || followLast)) {
                String target = new String(readAllBytes(child.fid(), path), StandardCharsets.ISO_8859_1);
                Optional<Node> mount = mountPoint(st, target, n.readOnly(), path);
                if (mount.isPresent()) {
                    child = mount.get();
                } else {
                    if (links >= MAX_LINKS) {
                        throw new AfsFileException(path, 0, "ELOOP: more than " + MAX_LINKS + " symbolic links", null);
                    }
                    String prefix = "/afs/" + String.join("/", parts.subList(0, i));
                    String decoded = AfsNames.fromWire(target);
                    String next = decoded.startsWith("/") ? decoded : prefix + "/" + decoded;
                    String rest = last ? "" : "/" + String.join("/", parts.subList(i + 1, parts.size()));
                    return resolve(next + rest, followLast, links + 1);
                }
            }
            n = child;
        }
        return n;
    }

    /**
     * A mount point's target: {@code #[cell:]volume.} (the read-only clone when the path is read-only so far and one
     * exists) or {@code %[cell:]volume.} (read-write); the cache manager's rules.
     */
    private Optional<Node> mountPoint(AfsStat st, String target, boolean readOnlyPath, String path)
            throws IOException {
        if (!st.isMountPointCandidate() || target.length() < 3 || !target.endsWith(".")
                || (target.charAt(0) != '#' && target.charAt(0) != '%')) {
            return Optional.empty();
        }
        String body = target.substring(1, target.length() - 1);
        int colon = body.indexOf(':');
        if (colon >= 0) {
            String other = body.substring(0, colon);
            if (!other.equals(cell)) {
                throw new AfsFileException(path, 0, "mount point to cell " + other + ": other cells are not served",
                        null);
            }
            body = body.substring(colon + 1);
        }
        VolumeSites s = locator.byName(body, target.charAt(0) == '#' && readOnlyPath);
        return Optional.of(new Node(new AFSFid(s.id(), 1, 1), s.readOnly()));
    }

    private static String parentOf(String path) {
        String p = path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
        int slash = p.lastIndexOf('/');
        return p.substring(0, slash);
    }

    private static String nameOf(String path) throws AfsFileException {
        String p = path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
        String name = p.substring(p.lastIndexOf('/') + 1);
        if (name.isEmpty() || name.equals(".") || name.equals("..")) {
            throw new AfsFileException(path, 0, "EINVAL: no file name at the end of the path", null);
        }
        return name;
    }

    // ------------------------------------------------------------------ status and directories

    /**
     * A path's status (a symbolic link's own status for the last component; mount points are followed).
     *
     * @param path {@code /afs/CELL/...}
     * @return the status, from the cache while its callback holds
     * @throws AfsFileException a named error (ENOENT, ENOTDIR, EACCES, VNOVOL ...)
     * @throws IOException no fileserver or vlserver answered
     */
    public AfsStat stat(String path) throws IOException {
        return stat(resolve(path, false).fid(), path);
    }

    /**
     * A fid's status.
     *
     * @param fid the fid
     * @return the status, from the cache while its callback holds
     * @throws IOException the fileserver's error (VNOVNODE for a fid that does not exist) or none answered
     */
    public AfsStat stat(AFSFid fid) throws IOException {
        return stat(fid, Fids.format(fid));
    }

    private AfsStat stat(AFSFid fid, String path) throws IOException {
        AfsStat held = cache.get(fid);
        if (held != null) {
            return held;
        }
        long start = clock.getAsLong();
        RxafsFetchStatusResult r = call(path, fid.volume(), fs -> fs.fetchStatus(fid, deadline));
        AfsStat st = AfsStat.of(fid, r.outStatus());
        cache.put(st, r.callBack(), start);
        return st;
    }

    private AfsDirectory directory(AFSFid fid, String path) throws IOException {
        AfsDirectory d = cache.directory(fid);
        if (d != null) {
            return d;
        }
        long start = clock.getAsLong();
        List<RxafsFetchData64Result> done = new ArrayList<>(1);
        byte[] data;
        try (FetchStream in = fetch(fid, 0, Long.MAX_VALUE >>> 1, path, done::add, deadline)) {
            data = in.readAllBytes();
        }
        d = AfsDirectory.parse(data);
        if (!done.isEmpty()) {
            AfsStat st = AfsStat.of(fid, done.get(0).outStatus());
            if (st.type() != AfsStat.Type.DIRECTORY) {
                throw new AfsFileException(path, 0, "ENOTDIR: " + Fids.format(fid) + " is not a directory", null);
            }
            cache.put(st, done.get(0).callBack(), start);
            cache.putDirectory(fid, st.dataVersion(), d);
        }
        return d;
    }

    /**
     * A directory's entries, "." and ".." left out, in the directory's hash-chain order.
     *
     * @param path a directory's path
     * @return the entries
     * @throws AfsFileException ENOTDIR, ENOENT, EACCES ...
     * @throws IOException no server answered, or the directory is malformed ({@link AfsFormatException})
     */
    public List<Entry> list(String path) throws IOException {
        Node n = resolve(path, true);
        if (stat(n.fid(), path).type() != AfsStat.Type.DIRECTORY) {
            throw new AfsFileException(path, 0, "ENOTDIR: not a directory", null);
        }
        List<Entry> out = new ArrayList<>();
        for (AfsDirectory.Entry e : directory(n.fid(), path).entries()) {
            if (!e.name().equals(".") && !e.name().equals("..")) {
                out.add(new Entry(AfsNames.fromWire(e.name()),
                        new AFSFid(n.fid().volume(), e.vnode(), e.unique())));
            }
        }
        return out;
    }

    /**
     * A directory's entries with their statuses, as {@code ls -l} needs them: the statuses not held in the cache are
     * fetched {@link AfsConstants#AFSCBMAX} (50) a call with InlineBulkStatus, or BulkStatus, or one FetchStatus each,
     * whichever the fileserver knows ({@link BulkStatuses}), and kept in the cache under their callbacks.
     *
     * @param path a directory's path
     * @return the entries in the directory's hash-chain order, "." and ".." left out
     * @throws AfsFileException ENOTDIR, ENOENT, EACCES ... (an error about one entry is in its {@link StatEntry})
     * @throws IOException no server answered, or the directory is malformed ({@link AfsFormatException})
     */
    public List<StatEntry> listWithStatus(String path) throws IOException {
        List<Entry> entries = list(path);
        Map<AFSFid, BulkStatuses.Answer> answers = new HashMap<>();
        List<AFSFid> ask = new ArrayList<>();
        for (Entry e : entries) {
            if (!cache.holds(e.fid())) {
                ask.add(e.fid());
            }
        }
        for (int i = 0; i < ask.size(); i += AfsConstants.AFSCBMAX) {
            List<AFSFid> batch = ask.subList(i, Math.min(ask.size(), i + AfsConstants.AFSCBMAX));
            long start = clock.getAsLong();
            for (BulkStatuses.Answer a : call(path, batch.get(0).volume(), fs -> bulk.fetch(fs, batch, deadline))) {
                answers.put(a.fid(), a);
                if (a.error() == 0 && a.callBack() != null) {
                    cache.put(AfsStat.of(a.fid(), a.status()), a.callBack(), start);
                }
            }
        }
        List<StatEntry> out = new ArrayList<>(entries.size());
        for (Entry e : entries) {
            BulkStatuses.Answer a = answers.get(e.fid());
            if (a == null) {
                out.add(new StatEntry(e.name(), e.fid(), stat(e.fid(), path), 0));
            } else if (a.error() != 0) {
                out.add(new StatEntry(e.name(), e.fid(), null, a.error()));
            } else {
                out.add(new StatEntry(e.name(), e.fid(), AfsStat.of(e.fid(), a.status()), 0));
            }
        }
        return out;
    }

    // ------------------------------------------------------------------ reading

    /**
     * Streams a file's bytes (one FetchData64 call; nothing is kept in memory beyond Rx's window).
     *
     * @param path a file's path (symbolic links and mount points followed)
     * @return the stream; close it (closing early cancels the call)
     * @throws IOException as {@link #stat(String)}, or EISDIR
     */
    public InputStream read(String path) throws IOException {
        return read(path, 0, -1);
    }

    /**
     * Streams a range of a file's bytes.
     *
     * @param path a file's path
     * @param offset the first byte, ≥ 0
     * @param length bytes at most; -1 for all to the end (fewer when the file ends first)
     * @return the stream; close it
     * @throws IOException as {@link #stat(String)}, or EISDIR
     */
    public InputStream read(String path, long offset, long length) throws IOException {
        Node n = resolve(path, true);
        AfsStat st = stat(n.fid(), path);
        if (st.type() == AfsStat.Type.DIRECTORY) {
            throw new AfsFileException(path, 0, "EISDIR: is a directory", null);
        }
        return read(n.fid(), offset, length, path);
    }

    /**
     * Streams a range of a fid's bytes.
     *
     * @param fid the file's fid
     * @param offset the first byte, ≥ 0
     * @param length bytes at most; -1 for all to the end
     * @return the stream; close it
     * @throws IOException the fileserver's error (VNOVNODE ...) or none answered
     */
    public InputStream read(AFSFid fid, long offset, long length) throws IOException {
        return read(fid, offset, length, Fids.format(fid));
    }

    private InputStream read(AFSFid fid, long offset, long length, String path) throws IOException {
        if (offset < 0 || length < -1) {
            throw new IllegalArgumentException("offset " + offset + ", length " + length);
        }
        long want = length < 0 ? Long.MAX_VALUE >>> 1 : length;
        long start = clock.getAsLong();
        return fetch(fid, offset, want, path, r -> cache.put(AfsStat.of(fid, r.outStatus()), r.callBack(), start),
                transferDeadline);
    }

    /**
     * @param path a file's path
     * @return all its bytes
     * @throws IOException as {@link #read(String)}
     */
    public byte[] readAllBytes(String path) throws IOException {
        try (InputStream in = read(path)) {
            return in.readAllBytes();
        }
    }

    private byte[] readAllBytes(AFSFid fid, String path) throws IOException {
        try (InputStream in = read(fid, 0, -1, path)) {
            return in.readAllBytes();
        }
    }

    private FetchStream fetch(AFSFid fid, long offset, long length, String path, FetchStream.Done done,
            Duration limit) throws IOException {
        return call(path, fid.volume(), fs -> {
            AfsSplitCall<RxafsFetchData64Result> c = fs.fetchData64(fid, offset, length, limit);
            return new FetchStream(c, done, path);
        });
    }

    // ------------------------------------------------------------------ writing

    /**
     * Writes a whole byte array to a file.
     *
     * @param path the file's path; its directory must exist
     * @param data the bytes
     * @param mode what to do with an existing file
     * @return the file's status after the write
     * @throws IOException EEXIST (CREATE_NEW), EISDIR, EACCES, EROFS (a read-only volume), ENOENT (no directory)...
     */
    public AfsStat write(String path, byte[] data, WriteMode mode) throws IOException {
        return write(path, new ByteArrayInputStream(data), data.length, mode);
    }

    /**
     * Streams bytes to a file in one StoreData64 call.
     *
     * @param path the file's path; its directory must exist
     * @param in the source; exactly {@code length} bytes are read from it (not closed)
     * @param length bytes, ≥ 0
     * @param mode what to do with an existing file
     * @return the file's status after the write
     * @throws IOException as {@link #write(String, byte[], WriteMode)}, or the source's failure or early end
     */
    public AfsStat write(String path, InputStream in, long length, WriteMode mode) throws IOException {
        AFSFid fid = createOrFind(path, mode);
        long pos = 0;
        if (mode == WriteMode.APPEND) {
            cache.invalidate(fid);
            pos = stat(fid, path).length();
        }
        return store(fid, in, pos, length, pos + length, path);
    }

    /**
     * Writes bytes at a position of an existing fid (the file grows if they end past it; nothing is truncated).
     *
     * @param fid the file's fid
     * @param in the source; exactly {@code length} bytes are read
     * @param offset where the bytes go
     * @param length bytes
     * @return the file's status after the write
     * @throws IOException the fileserver's error or none answered
     */
    public AfsStat write(AFSFid fid, InputStream in, long offset, long length) throws IOException {
        cache.invalidate(fid);
        long size = stat(fid).length();
        return store(fid, in, offset, length, Math.max(size, offset + length), Fids.format(fid));
    }

    private AFSFid createOrFind(String path, WriteMode mode) throws IOException {
        Node dir = resolve(parentOf(path), true);
        String name = AfsNames.toWire(nameOf(path));
        // CREATE_NEW leaves the existence check to the fileserver (EEXIST): no directory fetch per new file
        Optional<AfsDirectory.Entry> e = mode == WriteMode.CREATE_NEW ? Optional.empty()
                : directory(dir.fid(), path).lookup(name);
        if (e.isPresent()) {
            AFSFid fid = new AFSFid(dir.fid().volume(), e.get().vnode(), e.get().unique());
            AfsStat.Type type = stat(fid, path).type();
            if (type == AfsStat.Type.DIRECTORY) {
                throw new AfsFileException(path, 0, "EISDIR: is a directory", null);
            }
            if (type != AfsStat.Type.FILE) {
                // writing through a symbolic link or mount point would change the link's own contents
                throw new AfsFileException(path, 0, "EINVAL: a symbolic link or mount point, not a file", null);
            }
            return fid;
        }
        long start = clock.getAsLong();
        RxafsCreateFileResult r = call(path, dir.fid().volume(),
                fs -> fs.createFile(dir.fid(), name, storeStatus(MODE_FILE), deadline));
        cache.update(AfsStat.of(dir.fid(), r.outDirStatus()));
        cache.put(AfsStat.of(r.outFid(), r.outFidStatus()), r.callBack(), start);
        return r.outFid();
    }

    private AfsStat store(AFSFid fid, InputStream in, long pos, long length, long fileLength, String path)
            throws IOException {
        cache.invalidate(fid);
        RxafsStoreData64Result r = call(path, fid.volume(), fs -> {
            try (AfsSplitCall<RxafsStoreData64Result> c =
                    fs.storeData64(fid, storeStatus(-1), pos, length, fileLength, transferDeadline)) {
                OutputStream out = c.call().output();
                long copied = copy(in, out, length);
                if (copied != length) {
                    throw new AfsFileException(path, 0, "the source ended after " + copied + " of " + length
                            + " bytes", null);
                }
                out.close();
                return c.end();
            }
        });
        cache.invalidate(fid);
        return AfsStat.of(fid, r.outStatus());
    }

    private static long copy(InputStream in, OutputStream out, long length) throws IOException {
        byte[] buf = new byte[64 * 1024];
        long done = 0;
        while (done < length) {
            int n = in.read(buf, 0, (int) Math.min(buf.length, length - done));
            if (n < 0) {
                break;
            }
            out.write(buf, 0, n);
            done += n;
        }
        return done;
    }

    /** A store status setting the modification time to now, and the mode when {@code mode} ≥ 0. */
    private static AFSStoreStatus storeStatus(int mode) {
        int now = (int) (System.currentTimeMillis() / 1000);
        int mask = AfsConstants.AFS_SETMODTIME | (mode >= 0 ? AfsConstants.AFS_SETMODE : 0);
        return new AFSStoreStatus(mask, now, 0, 0, Math.max(mode, 0), 0);
    }

    // ------------------------------------------------------------------ namespace changes

    /**
     * Makes a directory (its ACL is inherited from the parent, as the fileserver does).
     *
     * @param path the new directory's path; its parent must exist
     * @return the new directory's status
     * @throws IOException EEXIST, EACCES, EROFS, ENOENT ...
     */
    public AfsStat mkdir(String path) throws IOException {
        Node dir = resolve(parentOf(path), true);
        String name = AfsNames.toWire(nameOf(path));
        long start = clock.getAsLong();
        RxafsMakeDirResult r = call(path, dir.fid().volume(),
                fs -> fs.makeDir(dir.fid(), name, storeStatus(MODE_DIR), deadline));
        forgetDirectory(dir.fid());
        AfsStat st = AfsStat.of(r.outFid(), r.outFidStatus());
        cache.put(st, r.callBack(), start);
        return st;
    }

    /**
     * Makes a volume mount point, as {@code fs mkmount} does: a symbolic link with mode 0644 whose contents are
     * {@code #VOLUME.} (or {@code %VOLUME.} for a read-write mount point).
     *
     * @param path the mount point's path; its parent must exist
     * @param volume the volume's name
     * @param readWrite whether the mount point always means the read-write volume
     * @return the mount point's status
     * @throws IOException EEXIST, EACCES, EROFS ...
     */
    public AfsStat mkmount(String path, String volume, boolean readWrite) throws IOException {
        Node dir = resolve(parentOf(path), true);
        String name = AfsNames.toWire(nameOf(path));
        String target = (readWrite ? "%" : "#") + AfsNames.toWire(volume) + ".";
        RxafsSymlinkResult r = call(path, dir.fid().volume(),
                fs -> fs.symlink(dir.fid(), name, target, storeStatus(MODE_FILE), deadline));
        forgetDirectory(dir.fid());
        return AfsStat.of(r.outFid(), r.outFidStatus());
    }

    /**
     * Makes a symbolic link, as {@code ln -s TARGET PATH} does (mode 0755, as the cache manager gives links; a
     * target of the form {@code #vol.} or {@code %vol.} would be a mount point only with mode 0644, {@link #mkmount}).
     * Paths through it follow the target, relative to the link's directory unless it starts with {@code /}.
     *
     * @param path the link's path; its parent must exist
     * @param target what the link points to, stored as its UTF-8 bytes (at most 1,024)
     * @return the link's own status
     * @throws IOException EEXIST, EACCES, EROFS, ENOENT ...
     */
    public AfsStat symlink(String path, String target) throws IOException {
        Node dir = resolve(parentOf(path), true);
        String name = AfsNames.toWire(nameOf(path));
        String contents = AfsNames.toWire(target);
        RxafsSymlinkResult r = call(path, dir.fid().volume(),
                fs -> fs.symlink(dir.fid(), name, contents, storeStatus(MODE_DIR), deadline));
        forgetDirectory(dir.fid());
        return AfsStat.of(r.outFid(), r.outFidStatus());
    }

    /**
     * A symbolic link's target, as {@code readlink} gives it (a mount point's {@code #vol.} too).
     *
     * @param path the link's path (not followed at its end)
     * @return the target
     * @throws IOException EINVAL when it is not a symbolic link, ENOENT ...
     */
    public String readLink(String path) throws IOException {
        Node n = resolve(path, false);
        if (stat(n.fid(), path).type() != AfsStat.Type.SYMLINK) {
            throw new AfsFileException(path, 22, "EINVAL: not a symbolic link", null);
        }
        return AfsNames.fromWire(new String(readAllBytes(n.fid(), path), StandardCharsets.ISO_8859_1));
    }

    /**
     * Makes a hard link, as {@code ln EXISTING PATH} does. AFS links files only, and only within one directory:
     * the fileserver refuses a directory (EISDIR) and a file of another directory (EXDEV).
     *
     * @param existing the existing file's path (a symbolic link at its end is linked itself, not followed)
     * @param path the new name
     * @return the file's status (its link count raised)
     * @throws IOException EXDEV, EISDIR, EEXIST, EACCES, EROFS, ENOENT ...
     */
    public AfsStat link(String existing, String path) throws IOException {
        Node target = resolve(existing, false);
        Node dir = resolve(parentOf(path), true);
        String name = AfsNames.toWire(nameOf(path));
        if (target.fid().volume() != dir.fid().volume()) {
            throw new AfsFileException(path, 18, "EXDEV: " + existing + " is in another volume", null);
        }
        RxafsLinkResult r = call(path, dir.fid().volume(), fs -> fs.link(dir.fid(), name, target.fid(), deadline));
        forgetDirectory(dir.fid());
        cache.invalidate(target.fid());
        return AfsStat.of(target.fid(), r.outFidStatus());
    }

    /**
     * Removes a file, a symbolic link, or an empty directory (RemoveFile or RemoveDir by the entry's type).
     *
     * @param path the path (a symbolic link or mount point at the end is removed itself, not followed)
     * @throws IOException ENOENT, ENOTEMPTY, EACCES, EROFS ...
     */
    public void remove(String path) throws IOException {
        Node dir = resolve(parentOf(path), true);
        String name = AfsNames.toWire(nameOf(path));
        Optional<AfsDirectory.Entry> e = directory(dir.fid(), path).lookup(name);
        if (e.isEmpty()) {
            throw new AfsFileException(path, AfsErrors.ENOENT, null, null);
        }
        AFSFid fid = new AFSFid(dir.fid().volume(), e.get().vnode(), e.get().unique());
        boolean isDir = stat(fid, path).type() == AfsStat.Type.DIRECTORY;
        if (isDir) {
            call(path, dir.fid().volume(), fs -> fs.removeDir(dir.fid(), name, deadline));
        } else {
            call(path, dir.fid().volume(), fs -> fs.removeFile(dir.fid(), name, deadline));
        }
        forgetDirectory(dir.fid());
        cache.invalidate(fid);
    }

    /**
     * Renames within one volume (the fileserver refuses a rename across volumes with EXDEV).
     *
     * @param from the existing path
     * @param to the new path (an existing file there is replaced, as rename(2) does)
     * @throws IOException ENOENT, EXDEV, EACCES, EROFS ...
     */
    public void rename(String from, String to) throws IOException {
        Node a = resolve(parentOf(from), true);
        Node b = resolve(parentOf(to), true);
        String oldName = AfsNames.toWire(nameOf(from));
        String newName = AfsNames.toWire(nameOf(to));
        if (a.fid().volume() != b.fid().volume()) {
            throw new AfsFileException(from, 18, "EXDEV: " + to + " is in another volume", null);
        }
        call(from, a.fid().volume(), fs -> fs.rename(a.fid(), oldName, b.fid(), newName, deadline));
        forgetDirectory(a.fid());
        forgetDirectory(b.fid());
    }

    private void forgetDirectory(AFSFid dir) {
        cache.invalidate(dir);
    }

    private <T> T call(String path, int volume, FileServers.Op<T> op) throws IOException {
        try {
            return servers.onVolume(volume, op);
        } catch (AfsFileException e) {
            throw e;
        } catch (RxException e) {
            throw new AfsFileException(path, e.code(), e.remote() ? null : e.getMessage(), e);
        }
    }

    /**
     * Stops: gives up this client's callbacks on every fileserver it called (GiveUpAllCallBacks; GiveUpCallBacks for
     * the held fids where a fileserver does not know it; 2 s at most a call, failures ignored), so no fileserver later
     * waits on this endpoint to break one; then closes the fileserver and vlserver clients and the endpoint.
     */
    @Override
    public void close() {
        servers.giveUpCallBacks(cache.heldFids(), Duration.ofSeconds(2));
        servers.close();
        vl.close();
        if (ownsEndpoint) {
            endpoint.close();
        }
    }

    /**
     * The fileserver client for a server (for tools and tests that need a raw RXAFS call).
     *
     * @param server a fileserver's address
     * @return its client, owned by this file system
     */
    public RxafsClient fileServer(InetSocketAddress server) {
        return servers.client(server);
    }
}
