// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.afs.files;

import java.io.IOException;

/** Data from a fileserver that is not in the form AFS defines (a directory, a mount point), with what is wrong. */
public final class AfsFormatException extends IOException {
    private static final long serialVersionUID = 1L;

    /**
     * @param message what is wrong, and where
     */
    public AfsFormatException(String message) {
        super(message);
    }
}
