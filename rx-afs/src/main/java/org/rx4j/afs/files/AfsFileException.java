// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.afs.files;

import java.io.IOException;

/**
 * A file operation the fileserver refused or could not do, with the path and the code's name
 * ({@link AfsErrors#describe}), e.g. {@code /afs/example.org/x: EACCES (49733388): permission denied}.
 */
public final class AfsFileException extends IOException {
    private static final long serialVersionUID = 1L;
    private final int code;
    private final String path;

    /**
     * @param path the path the operation was on
     * @param code the abort code (positive: the fileserver's; negative: Rx's), or 0 for a client-side failure
     * @param detail what failed, in words (may be null: the code's description is used)
     * @param cause the underlying exception, may be null
     */
    public AfsFileException(String path, int code, String detail, Throwable cause) {
        super(path + ": " + (detail != null ? detail : AfsErrors.describe(code)), cause);
        this.code = code;
        this.path = path;
    }

    /** @return the abort code, 0 for a failure found by the client (e.g. ENOTDIR on a path) */
    public int code() {
        return code;
    }

    /** @return the code's name, e.g. {@code VNOVNODE}, {@code EACCES} */
    public String codeName() {
        return AfsErrors.name(code);
    }

    /** @return the Linux errno the code stands for (translated or not), 0 if none */
    public int errno() {
        return AfsErrors.errno(code);
    }

    /** @return the path the operation was on */
    public String path() {
        return path;
    }
}
