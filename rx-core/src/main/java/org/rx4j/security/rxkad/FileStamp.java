// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.security.rxkad;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;

/**
 * A file's modification time and size, by which a server's configuration readers ({@link KeyDirectory},
 * {@link UserList}) notice that a file changed and read it again, as OpenAFS servers pick up {@code asetkey} and
 * {@code bos adduser} without a restart.
 *
 * @param mtime the modification time, or null for a missing file
 * @param size the size in bytes, or -1 for a missing file
 */
record FileStamp(FileTime mtime, long size) {
    /**
     * @param p a file
     * @return its stamp; a missing file's has a null time
     * @throws IOException if its attributes cannot be read for another reason
     */
    static FileStamp of(Path p) throws IOException {
        try {
            BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class);
            return new FileStamp(a.lastModifiedTime(), a.size());
        } catch (NoSuchFileException e) {
            return new FileStamp(null, -1);
        }
    }

    /** @return whether the file existed */
    boolean exists() {
        return mtime != null;
    }
}
