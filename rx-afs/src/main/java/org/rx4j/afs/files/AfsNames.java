// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.afs.files;

import java.nio.charset.StandardCharsets;

/**
 * AFS names are bytes; rx-afs's stubs and {@link AfsDirectory} carry them one {@code char} per byte (ISO-8859-1).
 * The file API takes and returns ordinary Java strings and stores them as UTF-8, as Linux tools on a cache
 * manager do with a UTF-8 locale.
 */
public final class AfsNames {
    private AfsNames() {
    }

    /**
     * @param name a Java string
     * @return its UTF-8 bytes, one char per byte
     */
    public static String toWire(String name) {
        return new String(name.getBytes(StandardCharsets.UTF_8), StandardCharsets.ISO_8859_1);
    }

    /**
     * @param wire a name one char per byte
     * @return the name decoded as UTF-8 (bytes that are not UTF-8 become U+FFFD)
     */
    public static String fromWire(String wire) {
        return new String(wire.getBytes(StandardCharsets.ISO_8859_1), StandardCharsets.UTF_8);
    }
}
