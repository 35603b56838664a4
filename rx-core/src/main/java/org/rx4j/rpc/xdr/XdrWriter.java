// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc.xdr;

import java.io.IOException;
import java.io.OutputStream;
import java.util.List;
import java.util.Objects;
import org.rx4j.rpc.errors.RxException;

/**
 * Writes XDR (RFC 4506) onto a call's output stream: every item is a multiple of 4 bytes, big-endian,
 * variable-length items are a 4-byte length then the bytes then zero padding to a multiple of 4.
 *
 * <p>A value that cannot be encoded (longer than its declared maximum, null where XDR has no null,
 * out of range) raises {@link RxException} with this side's marshal code (-450 client, -452 server;
 * see {@link XdrSide}) before any byte of that item is written; only an array's elements are checked one
 * by one as they go out, so a bad element fails after the earlier ones (the call is then aborted anyway).
 * Failures of the underlying stream (including an {@link RxException} it raises because the call was
 * aborted) pass through unchanged.
 *
 * <p>Not thread-safe: one writer per call direction. It does not buffer and never closes the stream.
 */
public final class XdrWriter {
    private static final byte[] ZERO_PAD = new byte[3];

    private final OutputStream out;
    private final XdrSide side;
    private final byte[] scratch = new byte[8];

    /**
     * @param out the call's request (client) or reply (server) stream; not closed by this writer
     * @param side which end of the call writes, for the marshal abort code
     */
    public XdrWriter(OutputStream out, XdrSide side) {
        this.out = Objects.requireNonNull(out, "out");
        this.side = Objects.requireNonNull(side, "side");
    }

    /** @return the side this writer marshals for */
    public XdrSide side() {
        return side;
    }

    /**
     * Builds (does not throw) the error for a value that cannot be encoded, for codecs.
     *
     * @param detail what is wrong with the value
     * @return an {@link RxException} with {@link XdrSide#marshalCode()}, local
     */
    public RxException marshalError(String detail) {
        return RxException.local(side.marshalCode(), "XDR marshal: " + detail);
    }

    /**
     * XDR {@code int} / {@code enum}: 4 bytes, big-endian two's complement (RFC 4506 §4.1, §4.3).
     *
     * @param value any int
     * @throws IOException if the stream fails
     */
    public void writeInt(int value) throws IOException {
        putInt(value, 0);
        out.write(scratch, 0, 4);
    }

    /**
     * XDR {@code unsigned int}: 4 bytes, big-endian (RFC 4506 §4.2).
     *
     * @param value 0..4,294,967,295
     * @throws RxException with the marshal code if value is out of range
     * @throws IOException if the stream fails
     */
    public void writeUnsignedInt(long value) throws IOException {
        if ((value & ~0xFFFF_FFFFL) != 0) {
            throw marshalError("unsigned int out of range 0..4294967295: " + value);
        }
        writeInt((int) value);
    }

    /**
     * XDR {@code hyper}: 8 bytes, big-endian two's complement (RFC 4506 §4.5). Also fits
     * {@code unsigned hyper} read back as the same 64 bits.
     *
     * @param value any long
     * @throws IOException if the stream fails
     */
    public void writeLong(long value) throws IOException {
        putInt((int) (value >>> 32), 0);
        putInt((int) value, 4);
        out.write(scratch, 0, 8);
    }

    /**
     * XDR {@code bool}: 4 bytes, 1 for TRUE, 0 for FALSE (RFC 4506 §4.4).
     *
     * @param value the value
     * @throws IOException if the stream fails
     */
    public void writeBoolean(boolean value) throws IOException {
        writeInt(value ? 1 : 0);
    }

    /**
     * XDR {@code enum}: the same 4 bytes as {@code int} (RFC 4506 §4.3). The caller keeps to the
     * enum's declared values.
     *
     * @param value the enum's numeric value
     * @throws IOException if the stream fails
     */
    public void writeEnum(int value) throws IOException {
        writeInt(value);
    }

    /**
     * XDR {@code string<maxLength>} (RFC 4506 §4.11): length, bytes, zero pad to 4. rxgen strings are C
     * byte strings, so each char is one byte (ISO-8859-1: U+0000..U+00FF map 1:1 to bytes 0..255). Text in
     * another charset is the caller's to encode and write with {@link #writeOpaque}.
     *
     * @param value the string, at most {@code maxLength} chars, each U+0000..U+00FF
     * @param maxLength the declared maximum in bytes, 0..{@link XdrReader#MAX_LENGTH}
     * @throws RxException with the marshal code if value is null, too long, or has a char above U+00FF
     * @throws IllegalArgumentException if maxLength is out of range (a programming error)
     * @throws IOException if the stream fails
     */
    public void writeString(String value, int maxLength) throws IOException {
        XdrReader.checkMaximum(maxLength);
        if (value == null) {
            throw marshalError("null string");
        }
        int length = value.length();
        if (length > maxLength) {
            throw marshalError("string of " + length + " bytes exceeds maximum " + maxLength);
        }
        byte[] bytes = new byte[length];
        for (int i = 0; i < length; i++) {
            char c = value.charAt(i);
            if (c > 0xFF) {
                throw marshalError("string char " + i + " is U+" + Integer.toHexString(c)
                        + ", not a byte (ISO-8859-1)");
            }
            bytes[i] = (byte) c;
        }
        writeInt(length);
        writePadded(bytes);
    }

    /**
     * XDR fixed-length {@code opaque[n]} (RFC 4506 §4.9): the bytes, zero pad to 4, no length word.
     * The reader must be told the same n.
     *
     * @param value the bytes
     * @throws RxException with the marshal code if value is null
     * @throws IOException if the stream fails
     */
    public void writeOpaqueFixed(byte[] value) throws IOException {
        if (value == null) {
            throw marshalError("null fixed opaque");
        }
        writePadded(value);
    }

    /**
     * XDR variable-length {@code opaque<maxLength>} (RFC 4506 §4.10): length, bytes, zero pad to 4.
     *
     * @param value the bytes, at most maxLength
     * @param maxLength the declared maximum in bytes, 0..{@link XdrReader#MAX_LENGTH}
     * @throws RxException with the marshal code if value is null or longer than maxLength
     * @throws IllegalArgumentException if maxLength is out of range
     * @throws IOException if the stream fails
     */
    public void writeOpaque(byte[] value, int maxLength) throws IOException {
        XdrReader.checkMaximum(maxLength);
        if (value == null) {
            throw marshalError("null opaque");
        }
        if (value.length > maxLength) {
            throw marshalError("opaque of " + value.length + " bytes exceeds maximum " + maxLength);
        }
        writeInt(value.length);
        writePadded(value);
    }

    /**
     * XDR fixed-length array {@code T[length]} (RFC 4506 §4.12): the elements only, no count.
     *
     * @param values exactly {@code length} elements
     * @param length the declared element count, 0..{@link XdrReader#MAX_LENGTH}
     * @param codec encodes one element
     * @param <T> the element type
     * @throws RxException with the marshal code if values is null or has another size
     * @throws IllegalArgumentException if length is out of range
     * @throws IOException if an element fails to encode or the stream fails
     */
    public <T> void writeFixedArray(List<T> values, int length, XdrCodec<T> codec) throws IOException {
        XdrReader.checkMaximum(length);
        if (values == null) {
            throw marshalError("null fixed array");
        }
        if (values.size() != length) {
            throw marshalError("fixed array has " + values.size() + " elements, declared " + length);
        }
        for (T value : values) {
            codec.encode(this, value);
        }
    }

    /**
     * XDR variable-length array {@code T<maxLength>} (RFC 4506 §4.13): 4-byte count, then the elements.
     *
     * @param values at most maxLength elements
     * @param maxLength the declared maximum element count, 0..{@link XdrReader#MAX_LENGTH}
     * @param codec encodes one element
     * @param <T> the element type
     * @throws RxException with the marshal code if values is null or too long
     * @throws IllegalArgumentException if maxLength is out of range
     * @throws IOException if an element fails to encode or the stream fails
     */
    public <T> void writeArray(List<T> values, int maxLength, XdrCodec<T> codec) throws IOException {
        XdrReader.checkMaximum(maxLength);
        if (values == null) {
            throw marshalError("null array");
        }
        int count = values.size();
        if (count > maxLength) {
            throw marshalError("array of " + count + " elements exceeds maximum " + maxLength);
        }
        writeInt(count);
        for (T value : values) {
            codec.encode(this, value);
        }
    }

    /**
     * XDR optional-data {@code T *} (RFC 4506 §4.19): bool FALSE for null, else bool TRUE then the value.
     *
     * @param value the value, or null for absent
     * @param codec encodes a present value
     * @param <T> the value type
     * @throws IOException if the value fails to encode or the stream fails
     */
    public <T> void writeOptional(T value, XdrCodec<T> codec) throws IOException {
        writeBoolean(value != null);
        if (value != null) {
            codec.encode(this, value);
        }
    }

    private void writePadded(byte[] bytes) throws IOException {
        out.write(bytes);
        int pad = XdrReader.padding(bytes.length);
        if (pad != 0) {
            out.write(ZERO_PAD, 0, pad);
        }
    }

    private void putInt(int value, int at) {
        scratch[at] = (byte) (value >>> 24);
        scratch[at + 1] = (byte) (value >>> 16);
        scratch[at + 2] = (byte) (value >>> 8);
        scratch[at + 3] = (byte) value;
    }
}
