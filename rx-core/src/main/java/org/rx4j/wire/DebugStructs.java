// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.wire;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.function.Consumer;

/**
 * Big-endian field access shared by the debug reply structs ({@link DebugStats}, {@link DebugConn},
 * {@link DebugPeer}, {@link RxStatistics}); callers check the body length first.
 */
final class DebugStructs {
    private DebugStructs() {
    }

    /** @return the big-endian int32 at {@code offset} of {@code b} */
    static int getInt(byte[] b, int offset) {
        return (b[offset] & 0xFF) << 24 | (b[offset + 1] & 0xFF) << 16 | (b[offset + 2] & 0xFF) << 8
                | (b[offset + 3] & 0xFF);
    }

    /** @return the big-endian u16 at {@code offset} of {@code b}, 0..65535 */
    static int getUnsignedShort(byte[] b, int offset) {
        return (b[offset] & 0xFF) << 8 | (b[offset + 1] & 0xFF);
    }

    /** @return the big-endian hi/lo word pair at {@code offset} as one 64-bit value */
    static long getHyper(byte[] b, int offset) {
        return (long) getInt(b, offset) << 32 | (getInt(b, offset + 4) & 0xFFFF_FFFFL);
    }

    /**
     * Runs an encoder into a heap array of exactly {@code size} bytes.
     *
     * @param size the struct size, bytes
     * @param encoder writes exactly {@code size} bytes
     * @return the bytes
     * @throws IllegalStateException if the encoder wrote a different number of bytes
     */
    static byte[] toBytes(int size, Consumer<ByteBuf> encoder) {
        byte[] bytes = new byte[size];
        // A wrapped heap array needs no release: it holds no pooled or direct memory.
        ByteBuf buf = Unpooled.wrappedBuffer(bytes).writerIndex(0);
        encoder.accept(buf);
        if (buf.writerIndex() != size || buf.array() != bytes) {
            throw new IllegalStateException("struct encoder wrote " + buf.writerIndex() + " bytes, not " + size);
        }
        return bytes;
    }

    /**
     * @param name field name for the message
     * @param v value that must fit in {@code bits} unsigned bits
     * @param bits 8 or 16
     * @throws IllegalArgumentException when it does not
     */
    static void checkUnsigned(String name, int v, int bits) {
        if ((v & ~((1 << bits) - 1)) != 0) {
            throw new IllegalArgumentException(name + " must be 0.." + ((1 << bits) - 1) + ": " + v);
        }
    }
}
