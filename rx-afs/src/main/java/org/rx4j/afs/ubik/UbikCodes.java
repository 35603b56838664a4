// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.afs.ubik;

/**
 * The ubik error codes a multi-server client acts on (values from Debian's {@code /usr/include/ubik.h},
 * com_err table {@code U}, base 5376).
 */
public final class UbikCodes {
    /** The server is not part of a quorum: it cannot serve reads or writes now. (5376) */
    public static final int UNOQUORUM = 5376;
    /** The server is not the sync site (writes go to the sync site). (5377) */
    public static final int UNOTSYNC = 5377;

    private UbikCodes() {
    }
}
