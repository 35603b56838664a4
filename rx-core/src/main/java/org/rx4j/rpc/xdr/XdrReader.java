// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc.xdr;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import org.rx4j.rpc.errors.RxException;

/**
 * Reads XDR (RFC 4506) from a call's input stream; the counterpart of {@link XdrWriter}.
 *
 * <p>The bytes come from the peer and are untrusted. Every length and element count is compared with
 * the declared maximum before anything is allocated, and large items are read in growing chunks, so
 * memory follows the bytes actually received: a hostile length (0x7fffffff, 0xffffffff) fails with an
 * {@link RxException}, never an {@link OutOfMemoryError}. Bad input raises {@link RxException} with this
 * side's unmarshal code (-451 client, -453 server; see {@link XdrSide}): a length over its maximum, a bool
 * other than 0 or 1, or the end of the stream inside an item. Pad bytes are skipped whatever their value
 * (lenient receive). Failures of the underlying stream (including an {@link RxException} it raises because
 * the call was aborted) pass through unchanged.
 *
 * <p>Not thread-safe: one reader per call direction. It does not buffer beyond the item being read and
 * never closes the stream.
 */
public final class XdrReader {
    /** Largest length or count any item may declare, bytes or elements (the JVM's safe array size). */
    public static final int MAX_LENGTH = Integer.MAX_VALUE - 8;

    /** First allocation for a variable-length item; it doubles as bytes actually arrive. */
    private static final int FIRST_CHUNK = 64 * 1024;
    /** Most list capacity reserved before elements arrive, elements. */
    private static final int MAX_INITIAL_CAPACITY = 1024;

    private final InputStream in;
    private final XdrSide side;
    private final byte[] scratch = new byte[8];

    /**
     * @param in the call's reply (client) or request (server) stream; not closed by this reader
     * @param side which end of the call reads, for the unmarshal abort code
     */
    public XdrReader(InputStream in, XdrSide side) {
        this.in = Objects.requireNonNull(in, "in");
        this.side = Objects.requireNonNull(side, "side");
    }

    /** @return the side this reader unmarshals for */
    public XdrSide side() {
        return side;
    }

    /**
     * Builds (does not throw) the error for bytes that cannot be decoded, for codecs (e.g. an unknown
     * union discriminant).
     *
     * @param detail what is wrong with the input
     * @return an {@link RxException} with {@link XdrSide#unmarshalCode()}, local
     */
    public RxException unmarshalError(String detail) {
        return RxException.local(side.unmarshalCode(), "XDR unmarshal: " + detail);
    }

    /**
     * XDR {@code int}: 4 bytes, big-endian two's complement (RFC 4506 §4.1).
     *
     * @return the value
     * @throws RxException with the unmarshal code at end of stream
     * @throws IOException if the stream fails
     */
    public int readInt() throws IOException {
        readFully(scratch, 4, "int");
        return getInt(0);
    }

    /**
     * XDR {@code unsigned int}: 4 bytes, big-endian (RFC 4506 §4.2).
     *
     * @return the value, 0..4,294,967,295
     * @throws RxException with the unmarshal code at end of stream
     * @throws IOException if the stream fails
     */
    public long readUnsignedInt() throws IOException {
        return Integer.toUnsignedLong(readInt());
    }

    /**
     * XDR {@code hyper}: 8 bytes, big-endian two's complement (RFC 4506 §4.5).
     *
     * @return the value
     * @throws RxException with the unmarshal code at end of stream
     * @throws IOException if the stream fails
     */
    public long readLong() throws IOException {
        readFully(scratch, 8, "hyper");
        return ((long) getInt(0) << 32) | Integer.toUnsignedLong(getInt(4));
    }

    /**
     * XDR {@code bool}: 4 bytes, 0 = FALSE, 1 = TRUE (RFC 4506 §4.4).
     *
     * @return the value
     * @throws RxException with the unmarshal code for any other value or at end of stream
     * @throws IOException if the stream fails
     */
    public boolean readBoolean() throws IOException {
        int value = readInt();
        if (value == 0 || value == 1) {
            return value == 1;
        }
        throw unmarshalError("bool is " + value + ", not 0 or 1");
    }

    /**
     * XDR {@code enum}: 4 bytes as {@code int} (RFC 4506 §4.3). The caller checks the value against the
     * enum's declared values and raises {@link #unmarshalError} for others.
     *
     * @return the numeric value
     * @throws RxException with the unmarshal code at end of stream
     * @throws IOException if the stream fails
     */
    public int readEnum() throws IOException {
        return readInt();
    }

    /**
     * XDR {@code string<maxLength>} (RFC 4506 §4.11) as ISO-8859-1: each byte becomes one char
     * U+0000..U+00FF (see {@link XdrWriter#writeString}).
     *
     * @param maxLength the declared maximum in bytes, 0..{@link #MAX_LENGTH}
     * @return the string
     * @throws RxException with the unmarshal code if the length exceeds maxLength or at end of stream
     * @throws IllegalArgumentException if maxLength is out of range
     * @throws IOException if the stream fails
     */
    public String readString(int maxLength) throws IOException {
        checkMaximum(maxLength);
        int length = readLength(maxLength, "string");
        return new String(readPadded(length, "string"), StandardCharsets.ISO_8859_1);
    }

    /**
     * XDR fixed-length {@code opaque[length]} (RFC 4506 §4.9): length bytes then pad to 4.
     *
     * @param length the declared size in bytes, 0..{@link #MAX_LENGTH} (from the schema, not the wire)
     * @return a new array of exactly {@code length} bytes
     * @throws RxException with the unmarshal code at end of stream
     * @throws IllegalArgumentException if length is out of range
     * @throws IOException if the stream fails
     */
    public byte[] readOpaqueFixed(int length) throws IOException {
        checkMaximum(length);
        return readPadded(length, "fixed opaque");
    }

    /**
     * XDR variable-length {@code opaque<maxLength>} (RFC 4506 §4.10).
     *
     * @param maxLength the declared maximum in bytes, 0..{@link #MAX_LENGTH}
     * @return a new array holding the bytes
     * @throws RxException with the unmarshal code if the length exceeds maxLength or at end of stream
     * @throws IllegalArgumentException if maxLength is out of range
     * @throws IOException if the stream fails
     */
    public byte[] readOpaque(int maxLength) throws IOException {
        checkMaximum(maxLength);
        int length = readLength(maxLength, "opaque");
        return readPadded(length, "opaque");
    }

    /**
     * XDR fixed-length array {@code T[length]} (RFC 4506 §4.12).
     *
     * @param length the declared element count, 0..{@link #MAX_LENGTH} (from the schema, not the wire)
     * @param codec decodes one element
     * @param <T> the element type
     * @return a mutable list of {@code length} elements
     * @throws IllegalArgumentException if length is out of range
     * @throws IOException if an element fails to decode (unmarshal code) or the stream fails
     */
    public <T> List<T> readFixedArray(int length, XdrCodec<T> codec) throws IOException {
        checkMaximum(length);
        return readElements(length, codec);
    }

    /**
     * XDR variable-length array {@code T<maxLength>} (RFC 4506 §4.13): a 4-byte count, then the elements.
     * The count is checked against maxLength before any list is made.
     *
     * @param maxLength the declared maximum element count, 0..{@link #MAX_LENGTH}
     * @param codec decodes one element
     * @param <T> the element type
     * @return a mutable list of the elements
     * @throws RxException with the unmarshal code if the count exceeds maxLength or at end of stream
     * @throws IllegalArgumentException if maxLength is out of range
     * @throws IOException if an element fails to decode or the stream fails
     */
    public <T> List<T> readArray(int maxLength, XdrCodec<T> codec) throws IOException {
        checkMaximum(maxLength);
        int count = readLength(maxLength, "array");
        return readElements(count, codec);
    }

    /**
     * XDR optional-data {@code T *} (RFC 4506 §4.19): a bool, then the value if TRUE.
     *
     * @param codec decodes a present value
     * @param <T> the value type
     * @return the value, or null when absent
     * @throws RxException with the unmarshal code for a bad bool or at end of stream
     * @throws IOException if the value fails to decode or the stream fails
     */
    public <T> T readOptional(XdrCodec<T> codec) throws IOException {
        return readBoolean() ? codec.decode(this) : null;
    }

    /** @return pad bytes after an item of {@code length} bytes to reach a multiple of 4: 0..3 */
    static int padding(int length) {
        return -length & 3;
    }

    /** @throws IllegalArgumentException if a schema-given maximum or size is outside 0..MAX_LENGTH */
    static void checkMaximum(int maximum) {
        if (maximum < 0 || maximum > MAX_LENGTH) {
            throw new IllegalArgumentException("XDR maximum must be 0.." + MAX_LENGTH + ": " + maximum);
        }
    }

    private <T> List<T> readElements(int count, XdrCodec<T> codec) throws IOException {
        // The count may still be large and unbacked by bytes: reserve little, let elements grow the list.
        List<T> list = new ArrayList<>(Math.min(count, MAX_INITIAL_CAPACITY));
        for (int i = 0; i < count; i++) {
            list.add(codec.decode(this));
        }
        return list;
    }

    /** Reads a uint32 length or count and checks it against the maximum before anything is allocated. */
    private int readLength(int maxLength, String what) throws IOException {
        long length = readUnsignedInt();
        if (length > maxLength) {
            throw unmarshalError(what + " length " + length + " exceeds maximum " + maxLength);
        }
        return (int) length;
    }

    /** Reads length bytes plus their pad; allocation grows with the bytes that actually arrive. */
    private byte[] readPadded(int length, String what) throws IOException {
        byte[] bytes = new byte[Math.min(length, FIRST_CHUNK)];
        int filled = 0;
        while (true) {
            int n = in.readNBytes(bytes, filled, bytes.length - filled);
            filled += n;
            if (filled < bytes.length) {
                throw unmarshalError("end of stream inside " + what + " (" + filled + " of " + length + " bytes)");
            }
            if (filled == length) {
                break;
            }
            bytes = Arrays.copyOf(bytes, (int) Math.min(length, 2L * bytes.length));
        }
        int pad = padding(length);
        if (pad != 0) {
            readFully(scratch, pad, what + " padding");
        }
        return bytes;
    }

    private void readFully(byte[] into, int length, String what) throws IOException {
        int n = in.readNBytes(into, 0, length);
        if (n < length) {
            throw unmarshalError("end of stream inside " + what + " (" + n + " of " + length + " bytes)");
        }
    }

    private int getInt(int at) {
        return (scratch[at] & 0xFF) << 24 | (scratch[at + 1] & 0xFF) << 16
                | (scratch[at + 2] & 0xFF) << 8 | (scratch[at + 3] & 0xFF);
    }
}
