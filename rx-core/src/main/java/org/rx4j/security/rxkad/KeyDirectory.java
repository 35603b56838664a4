// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.security.rxkad;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The keys of an AFS server's configuration directory (e.g. {@code /etc/openafs/server}): its {@code KeyFile} (DES
 * keys) and {@code KeyFileExt} (typed keys), either of which may be missing (docs/security.md "Server keys").
 * Before each use it compares both files' modification time and size with those it last read and re-reads on a
 * change, as OpenAFS servers pick up {@code asetkey}'s changes without a restart. Thread-safe.
 */
public final class KeyDirectory implements ServerKeySource {
    private final Path keyFile;
    private final Path keyFileExt;
    private Snapshot current;

    /** What was read, and the file states it was read from. */
    private record Snapshot(FileStamp keyFile, FileStamp keyFileExt, List<ServerKey> keys) {
    }

    /**
     * @param dir the server configuration directory holding {@code KeyFile} and/or {@code KeyFileExt}
     */
    public KeyDirectory(Path dir) {
        this.keyFile = dir.resolve("KeyFile");
        this.keyFileExt = dir.resolve("KeyFileExt");
    }

    /**
     * @return the keys of both files, KeyFile's first; re-read if either file changed since the last call
     * @throws IOException if a file cannot be read or is malformed
     */
    @Override
    public synchronized List<ServerKey> keys() throws IOException {
        FileStamp a = FileStamp.of(keyFile);
        FileStamp b = FileStamp.of(keyFileExt);
        if (current == null || !Objects.equals(current.keyFile, a) || !Objects.equals(current.keyFileExt, b)) {
            List<ServerKey> keys = new ArrayList<>();
            if (a.exists()) {
                keys.addAll(KeyFiles.readKeyFile(keyFile));
            }
            if (b.exists()) {
                keys.addAll(KeyFiles.readKeyFileExt(keyFileExt));
            }
            current = new Snapshot(a, b, List.copyOf(keys));
        }
        return current.keys;
    }

    /** @return the two file paths */
    @Override
    public String toString() {
        return "KeyDirectory[" + keyFile + ", " + keyFileExt + "]";
    }
}
