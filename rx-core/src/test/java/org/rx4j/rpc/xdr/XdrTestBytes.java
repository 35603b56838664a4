// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc.xdr;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.HexFormat;

/** Hex and stream helpers for the XDR tests. */
final class XdrTestBytes {
    private XdrTestBytes() {
    }

    /** @return the bytes of a hex string; spaces are ignored */
    static byte[] hex(String hex) {
        return HexFormat.of().parseHex(hex.replace(" ", ""));
    }

    /** @return {@code spaced} without its spaces: lets expected encodings be written word by word */
    static String words(String spaced) {
        return spaced.replace(" ", "");
    }

    /** @return lower-case hex of the bytes, no separators */
    static String hex(byte[] bytes) {
        return HexFormat.of().formatHex(bytes);
    }

    /** Something that writes with an XdrWriter. */
    interface Encoding {
        void write(XdrWriter w) throws IOException;
    }

    /** @return the bytes {@code encoding} writes, as {@code side} */
    static byte[] encode(XdrSide side, Encoding encoding) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        encoding.write(new XdrWriter(out, side));
        return out.toByteArray();
    }

    /** @return a reader over the bytes, as {@code side} */
    static XdrReader reader(XdrSide side, byte[] bytes) {
        return new XdrReader(new ByteArrayInputStream(bytes), side);
    }
}
