// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.gen.xg;

/**
 * XDR scalar types as rxgen names them, each 4 bytes on the wire except the 8-byte hypers (RFC 4506 §4.1-4.5;
 * rxgen encodes char and short as 4-byte ints too).
 */
public enum Prim {
    /** {@code int}, {@code afs_int32}, {@code long} (32-bit in XDR). */
    INT,
    /** {@code unsigned int}, {@code afs_uint32}, {@code u_long}. */
    UINT,
    /** {@code hyper}, {@code afs_int64}. */
    HYPER,
    /** {@code unsigned hyper}, {@code afs_uint64}. */
    UHYPER,
    /** {@code short}, {@code afs_int16}: a 4-byte int on the wire, sign-extended. */
    SHORT,
    /** {@code unsigned short}, {@code afs_uint16}: a 4-byte int on the wire, 0..65535. */
    USHORT,
    /** {@code char}: a 4-byte int on the wire, sign-extended. */
    CHAR,
    /** {@code unsigned char}, {@code afs_byte}: a 4-byte int on the wire, 0..255. */
    UCHAR,
    /** {@code bool}: 4 bytes, 0 or 1. */
    BOOL
}
