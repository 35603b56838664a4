// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.security.rxkad.crypto;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/** Reads and writes 8-byte fcrypt blocks in byte arrays as big-endian longs (the order bytes have on the wire). */
public final class Blocks {
    /** A big-endian long view of a byte array at any byte offset. */
    private static final VarHandle LONG_BE = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

    private Blocks() {
    }

    /** @return the 8 bytes at {@code off} as a big-endian long */
    public static long get(byte[] b, int off) {
        return (long) LONG_BE.get(b, off);
    }

    /** Writes {@code v} big-endian into the 8 bytes at {@code off}. */
    public static void put(byte[] b, int off, long v) {
        LONG_BE.set(b, off, v);
    }
}
