// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.afs.files;

import java.util.LinkedHashMap;
import java.util.Map;
import org.rx4j.rpc.errors.RxErrorTables;

/**
 * Names of the codes a fileserver aborts calls with: the volume errors 101..113 ({@code VNOVNODE},
 * {@code VNOVOL}, ...; Debian's {@code /usr/include/afs/errors.h}), the translated Unix errors of com_err table
 * {@code uae} (base 49733376, code = base + errno − 1; {@code /usr/include/afs/unified_afs.h}), which a
 * fileserver sends to clients that announce {@code CLIENT_CAPABILITY_ERRORTRANS}, and the Linux errno values a
 * Linux fileserver sends untranslated otherwise. Messages are rx4j's own words.
 */
public final class AfsErrors {
    /** Volume needs salvage. */
    public static final int VSALVAGE = 101;
    /** No such vnode in the volume. */
    public static final int VNOVNODE = 102;
    /** No such volume on this server. */
    public static final int VNOVOL = 103;
    /** Volume off line. */
    public static final int VOFFLINE = 106;
    /** Volume temporarily busy. */
    public static final int VBUSY = 110;
    /** Volume moved to another server. */
    public static final int VMOVED = 111;
    /** The com_err base of table uae. */
    public static final int UAE_BASE = 49733376;
    /** Permission denied, translated (uae EACCES). */
    public static final int UAEACCES = UAE_BASE + 13 - 1;
    /** Linux EACCES. */
    public static final int EACCES = 13;
    /** Linux ENOENT. */
    public static final int ENOENT = 2;
    /** Linux EEXIST. */
    public static final int EEXIST = 17;
    /** Linux EROFS (OpenAFS's VREADONLY). */
    public static final int EROFS = 30;

    /** errno → {name, message}: the Linux values a fileserver can send. */
    private static final Map<Integer, String[]> ERRNO = new LinkedHashMap<>();
    private static final Map<Integer, String[]> VOLUME = new LinkedHashMap<>();
    private static final Map<Integer, String[]> UAE = new LinkedHashMap<>();

    static {
        errno(1, "EPERM", "operation not permitted");
        errno(2, "ENOENT", "no such file or directory");
        errno(5, "EIO", "input/output error");
        errno(9, "EBADF", "bad file handle");
        errno(12, "ENOMEM", "out of memory on the server");
        errno(13, "EACCES", "permission denied");
        errno(16, "EBUSY", "busy");
        errno(17, "EEXIST", "file exists");
        errno(18, "EXDEV", "cross-volume link or rename");
        errno(20, "ENOTDIR", "not a directory");
        errno(21, "EISDIR", "is a directory");
        errno(22, "EINVAL", "invalid argument");
        errno(27, "EFBIG", "file too large");
        errno(28, "ENOSPC", "no space left on the partition");
        errno(30, "EROFS", "read-only volume");
        errno(31, "EMLINK", "too many links");
        errno(36, "ENAMETOOLONG", "name too long");
        errno(39, "ENOTEMPTY", "directory not empty");
        errno(122, "EDQUOT", "volume quota exceeded");
        volume(101, "VSALVAGE", "volume needs salvage");
        volume(102, "VNOVNODE", "no such vnode (file deleted or fid stale)");
        volume(103, "VNOVOL", "no such volume on this server");
        volume(104, "VVOLEXISTS", "volume already exists");
        volume(105, "VNOSERVICE", "volume not in service");
        volume(106, "VOFFLINE", "volume off line");
        volume(107, "VONLINE", "volume already on line");
        volume(108, "VDISKFULL", "partition full");
        volume(109, "VOVERQUOTA", "volume quota exceeded");
        volume(110, "VBUSY", "volume busy, try again");
        volume(111, "VMOVED", "volume moved to another server");
        volume(112, "VIO", "vnode temporarily unreadable");
        volume(113, "VSALVAGING", "volume being salvaged");
        RxErrorTables.register("vol", VOLUME);
        RxErrorTables.register("uae", UAE);
    }

    private AfsErrors() {
    }

    private static void errno(int code, String name, String message) {
        ERRNO.put(code, new String[] {name, message});
        UAE.put(UAE_BASE + code - 1, new String[] {"UAE" + name.substring(1), message});
    }

    private static void volume(int code, String name, String message) {
        VOLUME.put(code, new String[] {name, message});
    }

    /**
     * Registers tables {@code vol} and {@code uae} with {@link RxErrorTables} (idempotent), so
     * {@link org.rx4j.rpc.errors.RxException} messages name them. Errno values are not registered: other services use small
     * codes for other meanings.
     */
    public static void register() {
        // the static initialiser registers
    }

    /**
     * The errno a code stands for, whether translated (uae) or not.
     *
     * @param code an abort code from a fileserver
     * @return the Linux errno, or 0 when the code is not one
     */
    public static int errno(int code) {
        if (ERRNO.containsKey(code)) {
            return code;
        }
        if (code >= UAE_BASE && code < UAE_BASE + 256) {
            return code - UAE_BASE + 1;
        }
        return 0;
    }

    /**
     * @param code an abort code from a fileserver
     * @return its name ({@code VNOVNODE}, {@code EACCES}: a translated Unix error is named by its errno), else
     *     whatever {@link RxErrorTables#name} says
     */
    public static String name(int code) {
        String[] v = VOLUME.get(code);
        if (v != null) {
            return v[0];
        }
        String[] e = ERRNO.get(errno(code));
        if (e != null) {
            return e[0];
        }
        return RxErrorTables.name(code);
    }

    /**
     * @param code an abort code from a fileserver
     * @return its name, number and message, e.g. {@code EACCES (49733388): permission denied}
     */
    public static String describe(int code) {
        String[] v = VOLUME.get(code);
        if (v == null) {
            v = ERRNO.get(errno(code));
        }
        return v != null ? v[0] + " (" + code + "): " + v[1] : RxErrorTables.describe(code);
    }
}
