// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.afs.files;

import org.rx4j.afs.fs.AFSFetchStatus;
import org.rx4j.afs.fs.AFSFid;

/**
 * A file's status as the fileserver reports it (AFSFetchStatus), in Java units.
 *
 * @param fid the file's id (volume, vnode, uniquifier)
 * @param type {@link Type#FILE}, {@link Type#DIRECTORY} or {@link Type#SYMLINK} (mount points are symlinks whose
 *     mode has no execute bits)
 * @param length bytes (64 bits: Length_hi and Length)
 * @param dataVersion the data version (64 bits), which every change to the contents increases
 * @param mode the Unix mode bits (permissions only; AFS access is by ACL)
 * @param owner the owner's AFS id
 * @param group the group's AFS id
 * @param linkCount hard links
 * @param modifiedSeconds the client's modification time, seconds since 1970 (UTC)
 * @param callerAccess the ACL rights the caller has (bit mask: r=1 l=2 i=4 d=8 w=16 k=32 a=64)
 */
public record AfsStat(AFSFid fid, Type type, long length, long dataVersion, int mode, int owner, int group,
        int linkCount, long modifiedSeconds, int callerAccess) {
    /** A vnode's kind (AFSFetchStatus.FileType). */
    public enum Type {
        /** FileType 1. */
        FILE,
        /** FileType 2. */
        DIRECTORY,
        /** FileType 3 (a symbolic link or a mount point). */
        SYMLINK,
        /** Any other FileType value. */
        OTHER
    }

    /**
     * @param fid the file's id
     * @param s the fileserver's status
     * @return the status in Java units
     */
    public static AfsStat of(AFSFid fid, AFSFetchStatus s) {
        Type t = switch (s.fileType()) {
            case 1 -> Type.FILE;
            case 2 -> Type.DIRECTORY;
            case 3 -> Type.SYMLINK;
            default -> Type.OTHER;
        };
        return new AfsStat(fid, t, ((long) s.length_hi() << 32) | Integer.toUnsignedLong(s.length()),
                ((long) s.dataVersionHigh() << 32) | Integer.toUnsignedLong(s.dataVersion()), s.unixModeBits(),
                s.owner(), s.group(), s.linkCount(), Integer.toUnsignedLong(s.clientModTime()), s.callerAccess());
    }

    /** @return whether this is a mount point: a symlink with no execute bits (the cache manager's rule) */
    public boolean isMountPointCandidate() {
        return type == Type.SYMLINK && (mode & 0111) == 0;
    }

    /** @return the fid as {@code volume.vnode.unique} (unsigned), as afsio's -fid takes it */
    public String fidString() {
        return Fids.format(fid);
    }
}
